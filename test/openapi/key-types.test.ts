import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRoute } from '../../src/rest/routes.js';
import type { KeyType } from '../../src/shared/principal.js';
import { expectFailure } from '../support/envelope.js';
import { inRequestOrder, prepareRouteRecords, requestFor, type CompanyRecords } from '../support/route-fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// The KeyType a route row declares is what the API description tells callers: it must be the
// KeyType the resolvers enforce.

/** The route's fixture request for company 1's records: they exist, so a refusal cannot come from a missing one. */
function send(t: TestApp, route: RestRoute, token: string, own: CompanyRecords) {
  const { method, path, body } = requestFor(route, own);
  return t.request(method, path, { token, ...(body === undefined ? {} : { body }) });
}

describe("each route's declared KeyType is the one enforced", () => {
  let t: TestApp;
  const tokens = {} as Record<KeyType, string>;
  let own: CompanyRecords;
  beforeAll(async () => {
    t = await startTestApp();
    tokens.developer = await t.token({ type: 'developer', companyId: 1 });
    tokens.timesheet = await t.token({ type: 'timesheet', companyId: 1 });
    ({ own } = await prepareRouteRecords(t));
  });
  afterAll(async () => {
    await t.close();
  });

  for (const route of inRequestOrder()) {
    it(`${route.method} ${route.path}: ${route.keyType}`, async () => {
      // The refused type first: a DELETE with the allowed one removes the record.
      for (const type of ['timesheet', 'developer'] as const) {
        const res = await send(t, route, tokens[type], own);
        if (route.keyType === 'either' || route.keyType === type) expect(res.status, `${type} key: ${res.text}`).toBe(route.successStatus);
        else expectFailure(res, 403);
      }
    });
  }
});
