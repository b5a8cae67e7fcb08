import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RestRoute } from '../../src/rest/routes.js';
import type { KeyType } from '../../src/shared/principal.js';
import { expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// The KeyType a route row declares is what the API description tells callers: it must be the
// KeyType the resolvers enforce.

/** A body that passes the adapter and variable coercion, so the resolver's own checks decide. */
const BODIES: Record<string, unknown> = {
  'POST /api/webhook/subscriptions': { subscriberId: 301, uri: 'https://hooks.example.com/key-type' },
  'PUT /api/webhook/subscriptions/:id': { isActive: true },
};

function send(t: TestApp, route: RestRoute, token: string, ids: Record<string, number>) {
  const path = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => String(ids[name] ?? 1));
  const body = BODIES[`${route.method} ${route.path}`];
  return t.request(route.method, path, { token, ...(body === undefined ? {} : { body }) });
}

describe("each route's declared KeyType is the one enforced", () => {
  let t: TestApp;
  const tokens = {} as Record<KeyType, string>;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await startTestApp();
    tokens.developer = await t.token({ type: 'developer', companyId: 1 });
    tokens.timesheet = await t.token({ type: 'timesheet', companyId: 1 });
    // Records that exist, so a refusal cannot come from a missing one.
    const created = await t.request('POST', '/api/webhook/subscriptions', { token: tokens.developer, body: BODIES['POST /api/webhook/subscriptions'] });
    expect(created.status).toBe(201);
    ids.id = created.body.data.id;
    ids.subscriberId = 301;
  });
  afterAll(async () => {
    await t.close();
  });

  for (const route of routes) {
    it(`${route.method} ${route.path}: ${route.keyType}`, async () => {
      // The refused type first: a DELETE with the allowed one removes the record.
      for (const type of ['timesheet', 'developer'] as const) {
        const res = await send(t, route, tokens[type], ids);
        if (route.keyType === 'either' || route.keyType === type) expect(res.status, `${type} key`).not.toBe(403);
        else expectFailure(res, 403);
      }
    });
  }
});
