import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure, type Envelope } from '../support/envelope.js';
import { TIMESHEET_FIELDS } from '../support/contract-fields.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectedIds, insertListedTimesheets } from '../support/timesheet-list-rows.js';
import { rawRequest } from './http.js';

const PATH = '/api/external/timesheets';

function ids(env: Envelope): number[] {
  return (env.data as { timesheetId: number }[]).map((t) => t.timesheetId);
}

describe('GET /api/external/timesheets', () => {
  let t: TestApp;
  let companyWide: string;
  beforeAll(async () => {
    t = await startTestApp();
    await insertListedTimesheets(t.app.db);
    companyWide = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  const get = (query: string, token = companyWide) => t.request('GET', `${PATH}${query}`, { token });

  /** Every id of the list, following nextPageParameter from `query`. */
  async function walk(query: string, token = companyWide): Promise<number[]> {
    const seen: number[] = [];
    let env = expectEnvelope(await get(query, token), 200);
    seen.push(...ids(env));
    for (let guard = 0; env.nextPageParameter && guard < 50; guard++) {
      const joiner = query === '' ? '?' : `${query}&`;
      env = expectEnvelope(await get(`${joiner}${env.nextPageParameter}`, token), 200);
      seen.push(...ids(env));
    }
    return seen;
  }

  it('gives records identical to the single read, 20 to a page by default', async () => {
    const env = expectEnvelope(await get(''), 200);
    expect(env.count).toBe(20);
    expect(ids(env)).toEqual(expectedIds(() => true).slice(0, 20));
    expect(Object.keys(env.data[0]).sort()).toEqual([...TIMESHEET_FIELDS].sort());
    const single = expectEnvelope(await t.request('GET', `${PATH}/9001`, { token: companyWide }), 200);
    expect(env.data[0]).toEqual(single.data);
    expect(env.nextPageParameter).toMatch(/^after=/);
    expect(env.prevPageParameter).toBeUndefined();
  });

  it('pages forward and back, with the cursor in the query string or as the GET body', async () => {
    const first = expectEnvelope(await get('?pageSize=10'), 200);
    const second = expectEnvelope(await rawRequest(t, 'GET', PATH, { token: companyWide, body: first.nextPageParameter! }), 200);
    expect(ids(second)).toEqual(expectedIds(() => true).slice(10, 20));
    expect(second.prevPageParameter).toMatch(/^before=/);
    const back = expectEnvelope(await get(`?${second.prevPageParameter}`), 200);
    expect(ids(back)).toEqual(ids(first));
    expect(back.prevPageParameter).toBeUndefined();
    expect(await walk('?pageSize=7')).toEqual(expectedIds(() => true));
    // The largest page fits within the GraphQL cost limits the REST route runs under.
    const all = expectEnvelope(await get('?pageSize=100'), 200);
    expect(ids(all)).toEqual(expectedIds(() => true));
    expect(all.nextPageParameter).toBeUndefined();
  });

  it('filters by each parameter alone and combined', async () => {
    expect(await walk('?siteId=101')).toEqual(expectedIds((x) => x.siteId === 101));
    expect(await walk('?customerId=10')).toEqual(expectedIds((x) => x.customerId === 10));
    expect(await walk('?employeeId=1002')).toEqual(expectedIds((x) => x.employeeId === 1002));
    expect(await walk('?status=Approved')).toEqual(expectedIds((x) => x.status === 'Approved'));
    const from = '2026-12-01T05:00:00.000Z';
    const to = '2026-12-01T20:00:00Z';
    expect(await walk(`?from=${from}`)).toEqual(expectedIds((x) => x.start >= from));
    expect(await walk(`?to=${to}`)).toEqual(expectedIds((x) => x.start < '2026-12-01T20:00:00.000Z'));
    const combined = await walk(`?customerId=10&employeeId=1001&status=Pending&from=${from}&to=${to}&pageSize=2`);
    expect(combined).toEqual(
      expectedIds(
        (x) => x.customerId === 10 && x.employeeId === 1001 && x.status === 'Pending' && x.start >= from && x.start < '2026-12-01T20:00:00.000Z',
      ),
    );
    expect(combined.length).toBeGreaterThan(2);
  });

  it('filters by modifiedSince: entries written at or after the time, alone and with other filters', async () => {
    // Exactly the modification time of some entries: `at or after` keeps them.
    const since = '2026-10-06T12:00:00.000Z';
    const alone = await walk(`?modifiedSince=${since}`);
    expect(alone).toEqual(expectedIds((x) => x.modified >= since));
    expect(alone).toContain(9106);
    expect(alone).not.toEqual(expectedIds(() => true));
    // Any zone, any precision down to the millisecond, names the same instant.
    expect(await walk('?modifiedSince=2026-10-06T22:00:00%2B10:00')).toEqual(alone);
    expect(await walk('?modifiedSince=2026-10-06T12:00:00.001Z')).toEqual(expectedIds((x) => x.modified > since));
    const combined = await walk(`?siteId=100&status=Pending&modifiedSince=${since}&to=2026-12-01T20:00:00Z&pageSize=2`);
    expect(combined).toEqual(
      expectedIds((x) => x.siteId === 100 && x.status === 'Pending' && x.modified >= since && x.start < '2026-12-01T20:00:00.000Z'),
    );
    expect(combined.length).toBeGreaterThan(2);
    expect(await walk('?modifiedSince=2099-01-01T00:00:00Z')).toEqual([]);
  });

  it('pages forward and back under modifiedSince, the cursor carrying it', async () => {
    const since = '2026-10-04T00:00:00Z';
    const want = expectedIds((x) => x.modified >= '2026-10-04T00:00:00.000Z');
    const first = expectEnvelope(await get(`?modifiedSince=${since}&pageSize=4`), 200);
    const second = expectEnvelope(await get(`?${first.nextPageParameter}`), 200);
    expect(ids(second)).toEqual(want.slice(4, 8));
    // The same time written differently is the same filter.
    const same = expectEnvelope(await get(`?modifiedSince=2026-10-04T00:00:00.000Z&${first.nextPageParameter}`), 200);
    expect(ids(same)).toEqual(ids(second));
    const back = expectEnvelope(await get(`?${second.prevPageParameter}`), 200);
    expect(ids(back)).toEqual(ids(first));
    expectFailure(await get(`?modifiedSince=2026-10-05T00:00:00Z&${first.nextPageParameter}`), 400);
    // A cursor issued without modifiedSince is refused with it, and the other way round.
    const plain = expectEnvelope(await get('?pageSize=4'), 200);
    expectFailure(await get(`?modifiedSince=${since}&${plain.nextPageParameter}`), 400);
  });

  it('keeps the filter in the cursor, and refuses a cursor sent with another filter', async () => {
    const first = expectEnvelope(await get('?siteId=110&pageSize=3'), 200);
    const next = expectEnvelope(await get(`?${first.nextPageParameter}`), 200);
    expect(ids(next)).toEqual(expectedIds((x) => x.siteId === 110).slice(3, 6));
    expect(next.count).toBe(3);
    expectFailure(await get(`?siteId=100&${first.nextPageParameter}`), 400);
  });

  it('refuses a tampered cursor and one issued to another company', async () => {
    const first = expectEnvelope(await get('?pageSize=3'), 200);
    const cursor = first.nextPageParameter!.slice('after='.length);
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    expectFailure(await get(`?after=${tampered}`), 400);
    const other = await t.token({ type: 'timesheet', companyId: 2 });
    expectFailure(await get(`?after=${cursor}`, other), 400);
  });

  it('shows each key exactly what its single read shows', async () => {
    const customers = await t.token({ type: 'timesheet', companyId: 1, customerIds: [11] });
    expect(await walk('', customers)).toEqual(expectedIds((x) => x.customerId === 11));
    const sites = await t.token({ type: 'timesheet', companyId: 1, siteIds: [100, 101] });
    expect(await walk('', sites)).toEqual(expectedIds((x) => x.siteId !== 110));
    const both = await t.token({ type: 'timesheet', companyId: 1, customerIds: [10], siteIds: [100, 110] });
    expect(await walk('', both)).toEqual(expectedIds((x) => x.siteId === 100));
    const other = await t.token({ type: 'timesheet', companyId: 2 });
    expect(await walk('', other)).toEqual([9004, 9201, 9202, 9203]);
  });

  it('gives an empty page, not an error, for a filter outside the key’s scope', async () => {
    for (const query of ['?siteId=200', '?customerId=20', '?employeeId=2001', '?siteId=999999']) {
      const env = expectEnvelope(await get(query), 200);
      expect(env.data, query).toEqual([]);
      expect(env.count).toBe(0);
      expect(env.nextPageParameter).toBeUndefined();
    }
    const sites = await t.token({ type: 'timesheet', companyId: 1, siteIds: [100] });
    expect(expectEnvelope(await get('?siteId=110', sites), 200).data).toEqual([]);
  });

  it('answers a developer key with 403', async () => {
    const developer = await t.token({ type: 'developer', companyId: 1 });
    expectFailure(await get('', developer), 403);
  });

  it('refuses bad values with 400 naming the parameter', async () => {
    for (const [query, name] of [
      ['?siteId=abc', 'siteId'],
      ['?customerId=0', 'customerId'],
      ['?employeeId=-1', 'employeeId'],
      ['?from=yesterday', 'from'],
      ['?to=2026-12-01', 'to'],
      ['?from=2026-02-30T10:00:00Z', 'from'],
      ['?modifiedSince=yesterday', 'modifiedSince'],
      ['?modifiedSince=2026-12-01T10:00:00', 'modifiedSince'],
      ['?modifiedSince=', 'modifiedSince'],
      ['?modifiedSince=2026-02-30T10:00:00Z', 'modifiedSince'],
      ['?pageSize=0', 'pageSize'],
      ['?pageSize=101', 'pageSize'],
      ['?colour=red', 'colour'],
    ] as const) {
      const env = expectFailure(await get(query), 400);
      expect(JSON.stringify(env.errors), query).toContain(name);
    }
  });
});
