import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../src/webhooks/outbox.js';
import { createTestDatabase, onPostgres } from '../support/backend.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TIMESHEET_FIELDS } from '../support/contract-fields.js';
import { globalId, LICENSE_SELECTION, SUBSCRIPTION_SELECTION } from '../graphql/helpers.js';
import {
  allowedKey,
  fixtureOf,
  inRequestOrder,
  namesRecords,
  pageSized,
  prepareRouteRecords,
  refusedKey,
  requestFor,
  routeName,
  type CompanyRecords,
} from '../support/route-fixtures.js';

/*
 * The same data behind SQLite and PostgreSQL gives byte-identical REST and GraphQL responses:
 * one app per backend, the same seed, the same clock, the same requests in the same order,
 * and the raw response bodies compared as strings. The only normalisation is webhook ids
 * (random by design), replaced by their order of appearance. Needs both backends, so it runs
 * in the postgres project and is reported as skipped in the sqlite one.
 */

const NOW = Date.parse('2026-12-01T08:00:00.000Z');

interface Pair {
  sqlite: TestApp;
  postgres: TestApp;
}

function normalise(body: string): string {
  const seen = new Map<string, string>();
  return body.replace(/msg_[A-Za-z0-9_-]+/g, (id) => {
    if (!seen.has(id)) seen.set(id, `msg_${seen.size + 1}`);
    return seen.get(id)!;
  });
}

async function extraData(t: TestApp): Promise<void> {
  const db = t.app.db;
  // Text that sorts differently under a linguistic collation, non-ASCII text, JSON with
  // nested keys, every time field, true/false/null booleans.
  await db('staff').insert({ id: 1003, company_id: 1, staff_id: 'é-1003', first_name: 'Zoë', last_name: 'Ångström', email: null, mobile: null });
  await db('licenses').insert([
    { security_license_id: 80001, employee_id: 1003, license_number: 'b-2', status: 'Active', expiry_date: '2026-12-31T23:59:59.999Z', reminder: null, critical: true, is_invalid_license: null },
    { security_license_id: 80002, employee_id: 1003, license_number: 'B-1', status: null, expiry_date: null, reminder: 0, critical: false, is_invalid_license: true },
    { security_license_id: 80003, employee_id: 1003, license_number: 'a_3', status: 'Suspended', expiry_date: '2025-01-01T00:00:00.000Z', reminder: 365, critical: null, is_invalid_license: false },
  ]);
  await db('timesheets').insert({
    timesheet_id: 9101,
    site_id: 100,
    employee_id: 1003,
    entry_type: 'Shift',
    scheduled_start_time: '2026-11-30T22:00:00.000Z',
    scheduled_end_time: '2026-12-01T06:00:00.000Z',
    approved_date_time: '2026-12-01T07:00:00.000Z',
    clock_in_coordinates: JSON.stringify({ z: 1, a: { nested: [1, 2.5, 'x'] }, unicode: 'Süd' }),
    staff_submitted_timesheet_times: JSON.stringify([{ start: '22:00' }, { end: '06:00' }]),
    notes: JSON.stringify([{ note: 'Line one\nline "two"' }]),
    pay_break_time: 0,
    invoice_break_time: 45,
    status: 'Approved',
    lock: true,
  });
  // Modification times fixed, so modifiedSince picks the same entries on both backends.
  await db('timesheets').update({ modified_at: '2026-11-20T00:00:00.000Z' });
  await db('timesheets').where('timesheet_id', 9101).update({ modified_at: '2026-12-01T07:30:00.000Z' });
}

const GRAPHQL_QUERIES: [string, 'developer' | 'timesheet', string][] = [
  ['license pages', 'developer', `{ staff(employeeId: 1001) { firstName lastName email licenses(first: 7) { edges { cursor node { ${LICENSE_SELECTION} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`],
  ['last page', 'developer', `{ staff(employeeId: 1001) { licenses(last: 5) { edges { node { id securityLicenseId } } pageInfo { hasNextPage hasPreviousPage } } } }`],
  ['mixed values', 'developer', `{ staff(employeeId: 1003) { staffId firstName lastName email mobile licenses(first: 10) { edges { node { ${LICENSE_SELECTION} } } } } }`],
  ['filter', 'developer', `{ staff(employeeId: 1003) { licenses(licenseNumber: "B-1") { edges { node { licenseNumber } } } } }`],
  ['subscriber', 'developer', `{ subscriber(subscriberId: 302) { id name subscriberId eventFilters { webhookSubscriberEventFilterId event eventType } subscriptions { edges { cursor node { ${SUBSCRIPTION_SELECTION} } } } } }`],
  ['deliveries', 'developer', `{ subscriber(subscriberId: 302) { subscriptions(first: 1) { edges { node { deliveries(first: 10) { edges { cursor node { deliveryId webhookId event eventType state attemptCount nextAttemptAt createdDateTime completedDateTime attempts { attemptedAt httpStatus durationMs error } } } pageInfo { hasNextPage endCursor } } } } } } }`],
  ['catalog', 'developer', '{ webhookEvents { event eventType description } }'],
  ['nodes', 'developer', `{ nodes(ids: ["${globalId('License', 50001)}", "${globalId('Staff', 1003)}", "${globalId('Subscriber', 301)}", "${globalId('License', 70001)}"]) { id __typename ... on License { licenseNumber } ... on Staff { firstName } } }`],
  // One failing field per query: graphql-js lists errors in the order resolvers fail, which
  // depends on timing, not on the backend.
  ['missing staff', 'developer', '{ staff(employeeId: 999999) { firstName } webhookEvents { event } }'],
  ['foreign subscriber', 'developer', '{ subscriber(subscriberId: 401) { name } }'],
  ['bad cursor', 'developer', '{ staff(employeeId: 1001) { licenses(first: 2, after: "nope") { edges { cursor } } } }'],
  ['timesheet', 'timesheet', `{ a: timesheet(timesheetId: 9001) { ${TIMESHEET_FIELDS.join(' ')} } b: timesheet(timesheetId: 9101) { ${TIMESHEET_FIELDS.join(' ')} } }`],
  ['timesheet list', 'timesheet', `{ timesheets(first: 2, filter: { customerId: 10 }) { edges { cursor node { ${TIMESHEET_FIELDS.join(' ')} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`],
  ['staff list', 'developer', '{ staffs(last: 2, filter: { staffId: "é-1003" }) { edges { cursor node { employeeId staffId firstName lastName email mobile } } pageInfo { hasNextPage endCursor } } }'],
  ['timesheet list modified since', 'timesheet', `{ timesheets(filter: { modifiedSince: "2026-12-01T08:30:00+01:00" }) { edges { cursor node { ${TIMESHEET_FIELDS.join(' ')} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`],
  ['timesheet out of scope', 'timesheet', '{ timesheet(timesheetId: 9004) { timesheetId } }'],
];

describe.skipIf(!onPostgres())('SQLite and PostgreSQL give byte-identical responses', () => {
  const apps = {} as Pair;
  const tokens = {} as Record<keyof Pair, { developer: string; timesheet: string }>;
  const records = {} as Record<keyof Pair, { own: CompanyRecords; foreign: CompanyRecords }>;

  beforeAll(async () => {
    for (const backend of ['sqlite', 'postgres'] as const) {
      const t = await startTestApp({ database: await createTestDatabase(backend), now: () => NOW });
      apps[backend] = t;
      await extraData(t);
      records[backend] = await prepareRouteRecords(t); // and the webhook workers stopped: nothing changes behind the requests' backs
      for (const [id, eventType] of [[9001, 'created'], [9002, 'created'], [9101, 'created']] as const) {
        await emitEvent(t.app.db, { event: 'timesheet', eventType, companyId: 1, recordId: id, occurredAt: new Date(NOW - id).toISOString() });
      }
      tokens[backend] = {
        developer: await t.token({ type: 'developer', companyId: 1 }),
        timesheet: await t.token({ type: 'timesheet', companyId: 1, siteIds: [100] }),
      };
    }
  });
  beforeAll(() => expect(records.postgres).toEqual(records.sqlite));
  afterAll(async () => {
    for (const t of Object.values(apps)) {
      await t.close();
      await t.database.close();
    }
  });

  /** Sends the same request to both and expects the same status and the same bytes. */
  async function same(method: string, path: string, key: 'developer' | 'timesheet', body?: unknown): Promise<string> {
    const [a, b] = await Promise.all(
      (['sqlite', 'postgres'] as const).map((backend) => apps[backend].request(method, path, { token: tokens[backend][key], body })),
    );
    expect(b!.status, `${method} ${path}`).toBe(a!.status);
    expect(normalise(b!.text), `${method} ${path}`).toBe(normalise(a!.text));
    return a!.text;
  }

  it('REST writes: create and update subscriptions', async () => {
    await same('POST', '/api/webhook/subscriptions', 'developer', { subscriberId: 302, uri: 'https://hooks.example.com/created', event: 'timesheet', eventType: 'created' });
    await same('POST', '/api/webhook/subscriptions', 'developer', { subscriberId: 302, uri: 'https://hooks.example.com/expiring', event: 'license', eventType: 'expiring' });
    await same('POST', '/api/webhook/subscriptions', 'developer', { subscriberId: 301, uri: 'https://hooks.example.com/approved' });
    await same('POST', '/api/webhook/subscriptions', 'developer', { subscriberId: 301, uri: 'https://hooks.example.com/approved' }); // the same uri again: a second subscription
    await same('PUT', '/api/webhook/subscriptions/4', 'developer', { isActive: false });
    await same('PUT', '/api/webhook/subscriptions/5', 'developer', { uri: 'https://hooks.example.com/approved-v2' });
    // Deliveries for the new subscriptions, with the same ids and times on both.
    for (const t of Object.values(apps)) {
      for (const recordId of [9003, 9001, 9101]) {
        await emitEvent(t.app.db, { event: 'timesheet', eventType: 'created', companyId: 1, recordId, occurredAt: new Date(NOW + recordId).toISOString() });
      }
    }
  });

  /** The answers of one route to the requests its row and fixture give, each alike on both backends. */
  it.each(inRequestOrder().map((route) => [routeName(route), route] as const))('%s: every derived request answers alike', async (_name, route) => {
    const own = records.sqlite.own;
    const key = allowedKey(route);
    const send = (request: { method: string; path: string; body?: unknown }, as: 'developer' | 'timesheet' = key) =>
      same(request.method, request.path, as, request.body);
    const refused = refusedKey(route);
    if (refused) await send(requestFor(route, own), refused);
    await send(requestFor(route, own, 'unknown=1'));
    if (namesRecords(route)) await send(requestFor(route, records.sqlite.foreign));
    for (const query of fixtureOf(route).queries ?? []) await send(requestFor(route, own, query));
    if (pageSized(route)) {
      await send(requestFor(route, own, 'pageSize=0'));
      let page = JSON.parse(await send(requestFor(route, own, 'pageSize=1')));
      for (let i = 0; page.nextPageParameter && i < 3; i++) page = JSON.parse(await send(requestFor(route, own, page.nextPageParameter)));
      if (page.prevPageParameter) await send(requestFor(route, own, page.prevPageParameter));
    }
    await send(requestFor(route, own));
  });

  it('pages, filters and failures the extra data makes worth comparing', async () => {
    await same('GET', '/api/external/staffs/1001/licenses?pageSize=10', 'developer');
    await same('GET', '/api/external/staffs/1003/licenses', 'developer');
    await same('GET', '/api/external/timesheets/9101', 'timesheet');
    await same('GET', '/api/external/timesheets/9003', 'timesheet'); // outside the key's sites
    await same('GET', '/api/webhook/subscribers/302/subscriptions', 'developer');
    const log = JSON.parse(await same('GET', '/api/webhook/subscriptions/3/deliveries?pageSize=2', 'developer'));
    expect(log.data.length).toBe(2);
    if (log.nextPageParameter) await same('GET', `/api/webhook/subscriptions/3/deliveries?${log.nextPageParameter}`, 'developer');
    await same('GET', '/api/webhook/subscriptions/99/deliveries', 'developer');
    await same('GET', '/api/nowhere', 'developer');
    await same('GET', '/api/external/timesheets?status=Approved&from=2026-11-30T00:00:00Z&to=2026-12-01T00:00:00Z', 'timesheet');
    await same('GET', '/api/external/timesheets?customerId=10&employeeId=1003', 'timesheet');
    await same('GET', '/api/external/timesheets?siteId=200', 'timesheet');
    await same('GET', '/api/external/timesheets?from=soon', 'timesheet');
    await same('GET', '/api/external/timesheets?modifiedSince=2026-12-01T07:30:00.000Z', 'timesheet');
    await same('GET', '/api/external/timesheets?modifiedSince=2026-11-20T00:00:00Z&siteId=100&pageSize=1', 'timesheet');
    await same('GET', '/api/external/timesheets?modifiedSince=2026-12-01T07:30:00.001Z', 'timesheet');
    await same('GET', '/api/external/timesheets?modifiedSince=2026-12-01', 'timesheet');
    await same('GET', '/api/external/staffs?staffId=%C3%A9-1003', 'developer');
  });

  it.each(GRAPHQL_QUERIES)('GraphQL: %s', async (_name, key, query) => {
    await same('POST', '/graphql', key, { query });
  });

  it('redelivery answers alike', async () => {
    await same('POST', '/api/webhook/subscriptions/3/deliveries/3/redeliver', 'developer');
    await same('GET', '/api/webhook/subscriptions/3/deliveries', 'developer');
  });
});
