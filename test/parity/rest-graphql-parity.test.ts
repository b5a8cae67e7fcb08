import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { LICENSE_INFO_FIELDS, LICENSE_SCALAR_FIELDS, SUBSCRIPTION_FIELDS, TIMESHEET_FIELDS } from '../support/contract-fields.js';
import { expectData, LICENSE_SELECTION, SUBSCRIPTION_SELECTION } from '../graphql/helpers.js';

/*
 * REST `data` is the GraphQL result for the same record: each test writes its own GraphQL
 * query with the REST field names (aliases where the names differ) and compares the
 * JSON exactly. The queries here are independent of schema/operations, so a field dropped or
 * renamed in an operation file shows up as a difference.
 */

const SUBSCRIBER_LIST = `query ($s: Int!) { subscriber(subscriberId: $s) { subscriptions { edges { node { ${SUBSCRIPTION_SELECTION} } } } } }`;

describe('REST and GraphQL return the same data', () => {
  let t: TestApp;
  let developer: string;
  let timesheetKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    developer = await t.token({ type: 'developer', companyId: 1 });
    timesheetKey = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  it.each([9001, 9002, 9003])('timesheet %i: every field of a timesheet entry (docs/rest-api.md)', async (timesheetId) => {
    const rest = expectEnvelope(await t.request('GET', `/api/external/timesheets/${timesheetId}`, { token: timesheetKey }), 200);
    const gql = expectData(await t.graphql(timesheetKey, `{ timesheet(timesheetId: ${timesheetId}) { ${TIMESHEET_FIELDS.join(' ')} } }`));
    expect(Object.keys(rest.data).sort()).toEqual([...TIMESHEET_FIELDS].sort());
    expect(rest.data).toEqual(gql.timesheet);
  });

  it('the timesheet list: every page through nextPageParameter matches first/after, filters included', async () => {
    const PAGE = `query ($after: String) { timesheets(first: 2, after: $after, filter: { customerId: 10, status: "Pending" }) {
      edges { node { ${TIMESHEET_FIELDS.join(' ')} } } pageInfo { hasNextPage endCursor } } }`;
    let restPath = '/api/external/timesheets?pageSize=2&customerId=10&status=Pending';
    let after: string | undefined;
    for (let guard = 0; guard < 20; guard++) {
      const rest = expectEnvelope(await t.request('GET', restPath, { token: timesheetKey }), 200);
      const gql = expectData(await t.graphql(timesheetKey, PAGE, { after })).timesheets;
      expect(rest.data).toEqual(gql.edges.map((e: { node: unknown }) => e.node));
      expect(Boolean(rest.nextPageParameter)).toBe(gql.pageInfo.hasNextPage);
      if (!rest.nextPageParameter) break;
      restPath = `/api/external/timesheets?${rest.nextPageParameter}`;
      after = gql.pageInfo.endCursor;
    }
  });

  it('the timesheet list under modifiedSince matches Query.timesheets with the same filter, page by page', async () => {
    await t.app.db('timesheets').whereIn('timesheet_id', [9001, 9003]).update({ modified_at: '2026-11-20T10:00:00.000Z' });
    await t.app.db('timesheets').whereNotIn('timesheet_id', [9001, 9003]).update({ modified_at: '2026-11-19T00:00:00.000Z' });
    const PAGE = `query ($after: String) { timesheets(first: 1, after: $after, filter: { modifiedSince: "2026-11-20T10:00:00Z" }) {
      edges { node { ${TIMESHEET_FIELDS.join(' ')} } } pageInfo { hasNextPage endCursor } } }`;
    let restPath = '/api/external/timesheets?pageSize=1&modifiedSince=2026-11-20T10:00:00Z';
    let after: string | undefined;
    const seen: number[] = [];
    for (let guard = 0; guard < 5; guard++) {
      const rest = expectEnvelope(await t.request('GET', restPath, { token: timesheetKey }), 200);
      const gql = expectData(await t.graphql(timesheetKey, PAGE, { after })).timesheets;
      expect(rest.data).toEqual(gql.edges.map((e: { node: unknown }) => e.node));
      seen.push(...rest.data.map((x: { timesheetId: number }) => x.timesheetId));
      if (!rest.nextPageParameter) break;
      restPath = `/api/external/timesheets?${rest.nextPageParameter}`;
      after = gql.pageInfo.endCursor;
    }
    expect(seen).toEqual([9001, 9003]);
  });

  it('the staff list matches Query.staffs', async () => {
    const rest = expectEnvelope(await t.request('GET', '/api/external/staffs?pageSize=5', { token: developer }), 200);
    const gql = expectData(
      await t.graphql(developer, '{ staffs(first: 5) { edges { node { employeeId staffId firstName lastName employeeReferenceNumber email mobile subcontractorCompany } } } }'),
    );
    expect(rest.data).toEqual(gql.staffs.edges.map((e: { node: unknown }) => e.node));
    expect(rest.data.length).toBeGreaterThan(0);
  });

  describe('license pages', () => {
    const PAGE = `query ($first: Int, $after: String, $last: Int, $before: String, $n: String) {
      staff(employeeId: 1001) {
        licenses(first: $first, after: $after, last: $last, before: $before, licenseNumber: $n) {
          edges { node { ${LICENSE_SELECTION} } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        }
      }
    }`;
    const nodes = (data: any) => data.staff.licenses.edges.map((e: { node: unknown }) => e.node);

    it('the first page, and each page reached through nextPageParameter, match first/after', async () => {
      let restPath = '/api/external/staffs/1001/licenses?pageSize=12';
      let after: string | null = null;
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        const rest = expectEnvelope(await t.request('GET', restPath, { token: developer }), 200);
        const gql = expectData(await t.graphql(developer, PAGE, { first: 12, after }));
        expect(rest.data.length).toBeGreaterThan(0);
        for (const license of rest.data) {
          expect(Object.keys(license).sort()).toEqual([...LICENSE_SCALAR_FIELDS, 'employeeSecurityLicenseInfo'].sort());
          expect(Object.keys(license.employeeSecurityLicenseInfo).sort()).toEqual([...LICENSE_INFO_FIELDS].sort());
        }
        expect(rest.data).toEqual(nodes(gql));
        seen.push(...rest.data.map((l: { securityLicenseId: number }) => l.securityLicenseId));
        const { hasNextPage, endCursor } = gql.staff.licenses.pageInfo;
        expect('nextPageParameter' in rest, 'REST has a next page exactly when GraphQL does').toBe(hasNextPage);
        if (!hasNextPage) break;
        restPath = `/api/external/staffs/1001/licenses?pageSize=12&${rest.nextPageParameter}`;
        after = endCursor;
      }
      expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => 50001 + i));
    });

    it('a page reached through prevPageParameter matches last/before', async () => {
      const first = expectEnvelope(await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=10', { token: developer }), 200);
      const second = expectEnvelope(
        await t.request('GET', `/api/external/staffs/1001/licenses?${first.nextPageParameter}`, { token: developer }),
        200,
      );
      expect(second.prevPageParameter).toBeTypeOf('string');
      const back = expectEnvelope(
        await t.request('GET', `/api/external/staffs/1001/licenses?${second.prevPageParameter}`, { token: developer }),
        200,
      );
      const gqlFirst = expectData(await t.graphql(developer, PAGE, { first: 10 }));
      const gqlSecond = expectData(await t.graphql(developer, PAGE, { first: 10, after: gqlFirst.staff.licenses.pageInfo.endCursor }));
      const gqlBack = expectData(await t.graphql(developer, PAGE, { last: 10, before: gqlSecond.staff.licenses.pageInfo.startCursor }));
      expect(second.data).toEqual(nodes(gqlSecond));
      expect(back.data).toEqual(nodes(gqlBack));
      expect(back.data).toEqual(first.data);
    });

    it('the licenseNumber filter', async () => {
      const rest = expectEnvelope(
        await t.request('GET', '/api/external/staffs/1001/licenses?licenseNumber=NSW-0031', { token: developer }),
        200,
      );
      const gql = expectData(await t.graphql(developer, PAGE, { n: 'NSW-0031' }));
      expect(rest.data).toHaveLength(1);
      expect(rest.data).toEqual(nodes(gql));
    });
  });

  describe('subscriptions', () => {
    it('REST create returns what GraphQL then reads for that subscription', async () => {
      const created = expectEnvelope(
        await t.request('POST', '/api/webhook/subscriptions', {
          token: developer,
          body: { subscriberId: 301, uri: 'https://parity.example.com/rest-created' },
        }),
        201,
      );
      expect(Object.keys(created.data).sort()).toEqual([...SUBSCRIPTION_FIELDS].sort());
      const read = expectData(await t.graphql(developer, SUBSCRIBER_LIST, { s: 301 }));
      const match = read.subscriber.subscriptions.edges.map((e: { node: { id: number } }) => e.node).filter((s: { id: number }) => s.id === created.data.id);
      expect(match).toEqual([created.data]);
    });

    it('GraphQL create returns what REST then lists for that subscription', async () => {
      const created = expectData(
        await t.graphql(
          developer,
          `mutation { createEventSubscription(input: { subscriberId: 302, uri: "https://parity.example.com/gql-created", event: "license", eventType: "expiring" }) { eventSubscription { ${SUBSCRIPTION_SELECTION} } } }`,
        ),
      ).createEventSubscription.eventSubscription;
      const list = expectEnvelope(await t.request('GET', '/api/webhook/subscribers/302/subscriptions', { token: developer }), 200);
      expect(list.data.filter((s: { id: number }) => s.id === created.id)).toEqual([created]);
    });

    it('REST update returns what GraphQL then reads, and GraphQL update what REST then lists', async () => {
      const created = expectEnvelope(
        await t.request('POST', '/api/webhook/subscriptions', {
          token: developer,
          body: { subscriberId: 302, uri: 'https://parity.example.com/to-update', webhookSubscriberEventFilterId: 3021 },
        }),
        201,
      ).data;

      const restUpdated = expectEnvelope(
        await t.request('PUT', `/api/webhook/subscriptions/${created.id}`, {
          token: developer,
          body: { isActive: false, uri: 'https://parity.example.com/updated-by-rest' },
        }),
        200,
      ).data;
      expect(restUpdated).toMatchObject({ id: created.id, isActive: false, uri: 'https://parity.example.com/updated-by-rest' });
      const afterRest = expectData(await t.graphql(developer, SUBSCRIBER_LIST, { s: 302 }));
      expect(afterRest.subscriber.subscriptions.edges.map((e: { node: unknown }) => e.node)).toContainEqual(restUpdated);

      const gqlUpdated = expectData(
        await t.graphql(
          developer,
          `mutation ($id: Int!) { updateEventSubscription(input: { subscriptionId: $id, isActive: true }) { eventSubscription { ${SUBSCRIPTION_SELECTION} } } }`,
          { id: created.id },
        ),
      ).updateEventSubscription.eventSubscription;
      expect(gqlUpdated).toMatchObject({ id: created.id, isActive: true, uri: 'https://parity.example.com/updated-by-rest' });
      const list = expectEnvelope(await t.request('GET', '/api/webhook/subscribers/302/subscriptions', { token: developer }), 200);
      expect(list.data).toContainEqual(gqlUpdated);
    });

    it('one subscription by id', async () => {
      const created = expectEnvelope(
        await t.request('POST', '/api/webhook/subscriptions', { token: developer, body: { subscriberId: 301, uri: 'https://parity.example.com/one' } }),
        201,
      ).data;
      const rest = expectEnvelope(await t.request('GET', `/api/webhook/subscriptions/${created.id}`, { token: developer }), 200);
      const gql = expectData(
        await t.graphql(developer, `query ($id: Int!) { eventSubscription(subscriptionId: $id) { ${SUBSCRIPTION_SELECTION} } }`, { id: created.id }),
      );
      expect(rest.data).toEqual(gql.eventSubscription);
    });

    it('REST delete returns what GraphQL read just before, and GraphQL delete what REST read', async () => {
      for (const via of ['rest', 'graphql'] as const) {
        const created = expectEnvelope(
          await t.request('POST', '/api/webhook/subscriptions', { token: developer, body: { subscriberId: 301, uri: `https://parity.example.com/del-${via}` } }),
          201,
        ).data;
        const readGql = expectData(
          await t.graphql(developer, `query ($id: Int!) { eventSubscription(subscriptionId: $id) { ${SUBSCRIPTION_SELECTION} } }`, { id: created.id }),
        ).eventSubscription;
        const readRest = expectEnvelope(await t.request('GET', `/api/webhook/subscriptions/${created.id}`, { token: developer }), 200).data;
        const deleted =
          via === 'rest'
            ? expectEnvelope(await t.request('DELETE', `/api/webhook/subscriptions/${created.id}`, { token: developer }), 200).data
            : expectData(
                await t.graphql(
                  developer,
                  `mutation ($id: Int!) { deleteEventSubscription(input: { subscriptionId: $id }) { eventSubscription { ${SUBSCRIPTION_SELECTION} } } }`,
                  { id: created.id },
                ),
              ).deleteEventSubscription.eventSubscription;
        expect(deleted).toEqual(via === 'rest' ? readGql : readRest);
      }
    });

    it('the whole list of a subscriber', async () => {
      for (const uri of ['https://parity.example.com/l1', 'https://parity.example.com/l2']) {
        expectEnvelope(await t.request('POST', '/api/webhook/subscriptions', { token: developer, body: { subscriberId: 301, uri } }), 201);
      }
      const rest = expectEnvelope(await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token: developer }), 200);
      const gql = expectData(await t.graphql(developer, SUBSCRIBER_LIST, { s: 301 }));
      expect(rest.data.length).toBeGreaterThanOrEqual(2);
      expect(rest.data).toEqual(gql.subscriber.subscriptions.edges.map((e: { node: unknown }) => e.node));
    });
  });

  describe('customers and sites', () => {
    it('a customer page and a filtered site page, and the pages their cursors reach', async () => {
      const customers = expectEnvelope(await t.request('GET', '/api/external/customers?pageSize=1', { token: developer }), 200);
      const gqlCustomers = expectData(await t.graphql(developer, '{ customers(first: 1) { edges { node { customerApiId customerName } } } }'));
      expect(customers.data).toEqual(gqlCustomers.customers.edges.map((e: { node: unknown }) => e.node));
      const next = expectEnvelope(await t.request('GET', `/api/external/customers?${customers.nextPageParameter}`, { token: developer }), 200);
      const after = customers.nextPageParameter!.slice('after='.length);
      const gqlNext = expectData(await t.graphql(developer, 'query ($a: String) { customers(after: $a) { edges { node { customerApiId customerName } } } }', { a: after }));
      expect(next.data).toEqual(gqlNext.customers.edges.map((e: { node: unknown }) => e.node));

      for (const key of [developer, timesheetKey]) {
        const sites = expectEnvelope(await t.request('GET', '/api/external/sites?customerId=10', { token: key }), 200);
        const gqlSites = expectData(
          await t.graphql(key, '{ sites(customerId: 10) { edges { node { siteApiId siteName customerApiId customerName } } } }'),
        );
        expect(sites.data.length).toBeGreaterThan(0);
        expect(sites.data).toEqual(gqlSites.sites.edges.map((e: { node: unknown }) => e.node));
      }
    });
  });
});
