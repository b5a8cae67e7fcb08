import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, globalId } from '../graphql/helpers.js';
import { routes } from '../../src/rest/routes.js';
import { allowedKey, pageSized, pathFor, prepareRouteRecords, routeName, type CompanyRecords } from '../support/route-fixtures.js';

/** The most statements a REST read may take (the delivery log: subscription, page, attempts of the page). */
const MAX_READ_STATEMENTS = 3;

/*
 * SQL statements per request (counted through knex 'query' events), not time. Each request
 * warms the token's key first, so only the work of the request itself is counted.
 */

const EXTRA_LICENSES = Array.from({ length: 20 }, (_, i) => 50101 + i); // staff 1001: 45 + 20 = 65
const EXTRA_TIMESHEETS = Array.from({ length: 20 }, (_, i) => 9101 + i); // site 100, staff 1001
const LIST_TIMESHEETS = Array.from({ length: 60 }, (_, i) => 9301 + i); // with the above, 60 at site 100

describe('SQL statements per request', () => {
  let t: TestApp;
  let developer: string;
  let timesheetKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.db('licenses').insert(
      EXTRA_LICENSES.map((id) => ({
        security_license_id: id,
        employee_id: 1001,
        state: 'NSW',
        license_number: `NSW-X${id}`,
        status: 'Active',
        expiry_date: '2028-01-01T00:00:00.000Z',
        reminder: 30,
        critical: false,
        attachment_link: null,
        licence_sector: 'Security',
        is_invalid_license: false,
      })),
    );
    await t.app.db('timesheets').insert(
      EXTRA_TIMESHEETS.map((id) => ({
        timesheet_id: id,
        site_id: id % 2 === 0 ? 100 : 110,
        employee_id: id % 2 === 0 ? 1001 : 1002,
        status: 'Pending',
        scheduled_start_time: '2026-11-02T21:00:00.000Z',
      })),
    );
    await t.app.db.batchInsert(
      'timesheets',
      LIST_TIMESHEETS.map((id) => ({
        timesheet_id: id,
        site_id: 100,
        employee_id: 1001,
        status: 'Approved',
        scheduled_start_time: '2026-12-01T08:00:00.000Z',
      })),
      50,
    );
    const [{ n }] = (await t.app.db('licenses').where('employee_id', 1001).count({ n: '*' })) as [{ n: number }];
    expect(Number(n), 'staff 1001 needs at least 60 licenses').toBeGreaterThanOrEqual(60);
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
    // Warm-up: one request per token so key state is cached before anything is counted.
    expectData(await t.graphql(developer, '{ staff(employeeId: 1001) { employeeId } }'));
    expectData(await t.graphql(timesheetKey, '{ timesheet(timesheetId: 9001) { timesheetId } }'));
  });
  afterAll(() => t.close());

  const count = async <T>(fn: () => Promise<T>) => t.countStatements(fn);

  it('REST: a 50-license page is one statement (the page proves the staff member exists)', async () => {
    const { result, statements } = await count(() =>
      t.request('GET', '/api/external/staffs/1001/licenses?pageSize=50', { token: developer }),
    );
    const envelope = expectEnvelope(result, 200);
    expect(envelope.data).toHaveLength(50);
    expect(statements.length, statements.join('\n')).toBe(1);

    // The next page costs the same.
    const next = await count(() =>
      t.request('GET', `/api/external/staffs/1001/licenses?pageSize=50&${envelope.nextPageParameter}`, { token: developer }),
    );
    expect(expectEnvelope(next.result, 200).data).toHaveLength(15);
    expect(next.statements.length, next.statements.join('\n')).toBe(1);
  });

  it.each([
    ['an unknown staff member', 9999, 404],
    ['a staff member of another company', 2001, 404],
    ['a license number nobody holds', 1001, 200],
  ])('REST: an empty license page for %s is two statements, the page and the staff lookup', async (_what, id, status) => {
    const { result, statements } = await count(() =>
      t.request('GET', `/api/external/staffs/${id}/licenses?licenseNumber=NOBODY`, { token: developer }),
    );
    expect(result.status).toBe(status);
    if (status === 200) expect(expectEnvelope(result, 200).data).toEqual([]);
    expect(statements.length, statements.join('\n')).toBe(2);
  });

  it('GraphQL: staff with only its licenses selected reads the page alone, as REST does', async () => {
    const { result, statements } = await count(() =>
      t.graphql(developer, '{ staff(employeeId: 1001) { __typename licenses(first: 50) { edges { node { securityLicenseId } } } } }'),
    );
    expect(expectData(result).staff.licenses.edges).toHaveLength(50);
    expect(statements.length, statements.join('\n')).toBe(1);
  });

  it('GraphQL: a 50-license page with every license field is at most 2 statements', async () => {
    const { result, statements } = await count(() =>
      t.graphql(
        developer,
        `{ staff(employeeId: 1001) { firstName licenses(first: 50) {
            edges { cursor node { id securityLicenseId firstName lastName licenseNumber employeeSecurityLicenseInfo { currentStatus } } }
            pageInfo { hasNextPage endCursor } } } }`,
      ),
    );
    const data = expectData(result);
    expect(data.staff.licenses.edges).toHaveLength(50);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2);
  });

  it('GraphQL: nodes for 20 licenses is one statement, not one per license', async () => {
    const ids = [...EXTRA_LICENSES.slice(0, 10), ...Array.from({ length: 10 }, (_, i) => 50001 + i)].map((id) => globalId('License', id));
    const { result, statements } = await count(() =>
      t.graphql(developer, 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on License { securityLicenseId firstName } } }', { ids }),
    );
    const data = expectData(result);
    expect(data.nodes).toHaveLength(20);
    expect(data.nodes.every((n: unknown) => n !== null)).toBe(true);
    expect(statements, statements.join('\n')).toHaveLength(1);
  });

  it('GraphQL: nodes for 20 timesheets is one statement, not one per timesheet', async () => {
    const ids = EXTRA_TIMESHEETS.map((id) => globalId('Timesheet', id));
    const { result, statements } = await count(() =>
      t.graphql(timesheetKey, 'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Timesheet { timesheetId customerName siteName staffName } } }', {
        ids,
      }),
    );
    const data = expectData(result);
    expect(data.nodes.map((n: { timesheetId: number }) => n.timesheetId)).toEqual(EXTRA_TIMESHEETS);
    expect(statements, statements.join('\n')).toHaveLength(1);
  });

  it('GraphQL: nodes mixing licenses, staff and subscribers is one statement per type', async () => {
    const ids = [
      ...Array.from({ length: 10 }, (_, i) => globalId('License', 50001 + i)),
      globalId('Staff', 1001),
      globalId('Staff', 1002),
      globalId('Subscriber', 301),
      globalId('Subscriber', 302),
    ];
    const { result, statements } = await count(() =>
      t.graphql(developer, 'query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids }),
    );
    expect(expectData(result).nodes).toHaveLength(14);
    expect(statements, statements.join('\n')).toHaveLength(3);
  });

  it('a timesheet read is one statement, through REST and GraphQL', async () => {
    const rest = await count(() => t.request('GET', '/api/external/timesheets/9001', { token: timesheetKey }));
    expect(expectEnvelope(rest.result, 200).data.timesheetId).toBe(9001);
    expect(rest.statements, rest.statements.join('\n')).toHaveLength(1);

    const gql = await count(() => t.graphql(timesheetKey, '{ timesheet(timesheetId: 9002) { timesheetId customerName siteName staffName notes } }'));
    expect(expectData(gql.result).timesheet.timesheetId).toBe(9002);
    expect(gql.statements, gql.statements.join('\n')).toHaveLength(1);
  });

  it('a 50-timesheet page is at most 2 statements, REST or GraphQL, whatever the filters', async () => {
    for (const query of [
      'pageSize=50',
      'pageSize=50&siteId=100',
      'pageSize=50&customerId=10',
      'pageSize=50&employeeId=1001&status=Approved',
      'pageSize=50&siteId=100&customerId=10&employeeId=1001&status=Approved&from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z',
      'pageSize=50&modifiedSince=2000-01-01T00:00:00Z',
      'pageSize=50&siteId=100&status=Approved&modifiedSince=2000-01-01T00:00:00Z&from=2026-12-01T00:00:00Z',
    ]) {
      const rest = await count(() => t.request('GET', `/api/external/timesheets?${query}`, { token: timesheetKey }));
      const envelope = expectEnvelope(rest.result, 200);
      expect(envelope.data, query).toHaveLength(50);
      expect(rest.statements.length, rest.statements.join('\n')).toBeLessThanOrEqual(2);
      const next = await count(() => t.request('GET', `/api/external/timesheets?${query}&${envelope.nextPageParameter}`, { token: timesheetKey }));
      expect(expectEnvelope(next.result, 200).data.length, query).toBeGreaterThan(0);
      expect(next.statements.length, next.statements.join('\n')).toBeLessThanOrEqual(2);
    }
    const gql = await count(() =>
      t.graphql(
        timesheetKey,
        `{ timesheets(first: 50, filter: { customerId: 10, status: "Approved" }) {
            edges { cursor node { id timesheetId customerName siteName staffName email notes } } pageInfo { hasNextPage endCursor } } }`,
      ),
    );
    expect(expectData(gql.result).timesheets.edges).toHaveLength(50);
    expect(gql.statements.length, gql.statements.join('\n')).toBeLessThanOrEqual(2);
    const since = await count(() =>
      t.graphql(
        timesheetKey,
        `{ timesheets(first: 50, filter: { siteId: 100, modifiedSince: "2000-01-01T00:00:00Z" }) {
            edges { cursor node { id timesheetId customerName siteName staffName email notes } } pageInfo { hasNextPage endCursor } } }`,
      ),
    );
    expect(expectData(since.result).timesheets.edges).toHaveLength(50);
    expect(since.statements.length, since.statements.join('\n')).toBeLessThanOrEqual(2);
  });

  it('REST: a customer page and a site page are at most 2 statements each, with a cursor too', async () => {
    await t.app.db('customers').insert(Array.from({ length: 30 }, (_, i) => ({ id: 500 + i, company_id: 1, name: `Perf customer ${i}` })));
    await t.app.db('sites').insert(Array.from({ length: 60 }, (_, i) => ({ id: 5000 + i, customer_id: 500 + (i % 30), name: `Perf site ${i}` })));
    for (const path of ['/api/external/customers?pageSize=25', '/api/external/sites?pageSize=50', '/api/external/sites?customerId=500']) {
      const first = await count(() => t.request('GET', path, { token: developer }));
      const envelope = expectEnvelope(first.result, 200);
      expect(envelope.count).toBeGreaterThan(0);
      expect(first.statements.length, first.statements.join('\n')).toBeLessThanOrEqual(2);
      if (envelope.nextPageParameter) {
        const next = await count(() => t.request('GET', `${path.split('?')[0]}?${envelope.nextPageParameter}`, { token: timesheetKey }));
        expect(expectEnvelope(next.result, 200).count).toBeGreaterThan(0);
        expect(next.statements.length, next.statements.join('\n')).toBeLessThanOrEqual(2);
      }
    }
  });

  it('GraphQL: customers with their first sites is one statement per level, not one per customer', async () => {
    await t.app.db('customers').insert(Array.from({ length: 10 }, (_, i) => ({ id: 600 + i, company_id: 1, name: `Nested customer ${i}` })));
    await t.app.db('sites').insert(Array.from({ length: 100 }, (_, i) => ({ id: 6000 + i, customer_id: 600 + (i % 10), name: `Nested site ${i}` })));
    for (const token of [developer, timesheetKey]) {
      const { result, statements } = await count(() =>
        t.graphql(token, '{ customers(first: 10) { edges { node { customerApiId sites(first: 10) { edges { node { siteApiId } } pageInfo { hasNextPage } } } } } }'),
      );
      const customers = expectData(result).customers.edges.map((e: { node: { sites: { edges: unknown[] } } }) => e.node);
      expect(customers).toHaveLength(10);
      expect(customers.every((c: { sites: { edges: unknown[] } }) => c.sites.edges.length > 0)).toBe(true);
      expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2);
    }
  });
  describe('every read route of the route table', () => {
    let own: CompanyRecords;
    beforeAll(async () => {
      ({ own } = await prepareRouteRecords(t));
    });

    // A read is a few statements whatever its size: the record or page, a lookup of what it hangs
    // under, one batch for what each record carries. A list's statements do not grow with its page.
    it.each(routes.filter((r) => r.method === 'GET').map((r) => [routeName(r), r] as const))('%s', async (_name, route) => {
      const token = allowedKey(route) === 'developer' ? developer : timesheetKey;
      const counted = async (query: string) => {
        const { result, statements } = await count(() => t.request('GET', pathFor(route, own, query), { token }));
        expectEnvelope(result, 200);
        return statements;
      };
      const statements = await counted('');
      expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(MAX_READ_STATEMENTS);
      if (pageSized(route)) {
        const one = await counted('pageSize=1');
        const many = await counted('pageSize=100');
        expect(many.length, `pageSize=100 against pageSize=1:\n${many.join('\n')}`).toBe(one.length);
      }
    });
  });
});
