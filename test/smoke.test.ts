import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('gateway smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves a license page through REST and the same record through GraphQL', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const rest = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token });
    expect(rest.status).toBe(200);
    expect(rest.body.count).toBe(1);
    const gql = await t.graphql(token, '{ staff(employeeId: 1001) { licenses(first: 1) { edges { node { securityLicenseId } } } } }');
    expect(gql.body.data.staff.licenses.edges[0].node.securityLicenseId).toBe(rest.body.data[0].securityLicenseId);
  });
});
