import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importData, type ImportOptions } from '../../src/import/import-data.js';
import { expectEnvelope } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData } from '../graphql/helpers.js';

/*
 * Incremental sync with modifiedSince: a client notes the time, reads, and later asks for what
 * was written at or after the noted time. Writes come from `shiftgate import` (importData, the
 * only writer of timesheet entries), here on a clock the test moves by hand.
 */

const PATH = '/api/external/timesheets';
const LIST = `query ($filter: TimesheetFilter) { timesheets(first: 100, filter: $filter) { edges { node { timesheetId status } } } }`;
const SITE_LIST = `query ($filter: TimesheetFilter) {
  sites(first: 10) { edges { node { siteApiId timesheets(first: 10, filter: $filter) { edges { node { timesheetId } } } } } }
}`;

/** A seeded entry as an import file states it (src/import/format.ts), with one field to vary. */
function entry(timesheetId: number, siteId: number, employeeId: number, status: string) {
  return { timesheetId, siteId, employeeId, status, scheduledStartTime: '2026-11-02T21:00:00Z' };
}

describe('modifiedSince for incremental sync', () => {
  let t: TestApp;
  let token: string;
  let clock: number;
  // Past everything the seed and the migration wrote, so only this test's writes are "since".
  const START = Date.parse('2030-01-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    clock += 60_000;
  });
  clock = START;

  const write = (file: object, options: ImportOptions = {}) => importData(t.app.db, file, { now: () => new Date(clock), ...options });
  const iso = (ms: number) => new Date(ms).toISOString();
  const restIds = async (since: string, extra = '') =>
    (expectEnvelope(await t.request('GET', `${PATH}?pageSize=100&modifiedSince=${encodeURIComponent(since)}${extra}`, { token }), 200).data as {
      timesheetId: number;
    }[]).map((x) => x.timesheetId);
  const graphqlIds = async (since: string) =>
    (expectData(await t.graphql(token, LIST, { filter: { modifiedSince: since } })).timesheets.edges as { node: { timesheetId: number } }[]).map(
      (e) => e.node.timesheetId,
    );
  const stamp = async (id: number) => (await t.app.db('timesheets').where('timesheet_id', id).first('modified_at')).modified_at as string;

  it('finds a change committed after the client read, with the time noted before reading (REST and GraphQL)', async () => {
    const noted = iso(clock);
    // The client reads the page now: the entry is still Pending.
    const before = expectEnvelope(await t.request('GET', `${PATH}/9002`, { token }), 200);
    expect(before.data.status).toBe('Pending');
    expect(await restIds(noted)).toEqual([]);
    // Later, an import changes it.
    clock += 5;
    await write({ timesheets: [entry(9002, 101, 1001, 'Approved')] });
    expect(await restIds(noted)).toEqual([9002]);
    expect(await graphqlIds(noted)).toEqual([9002]);
    // Millisecond precision: the stamp is the write's time exactly, and a later time misses it.
    expect(await stamp(9002)).toBe(iso(clock));
    expect(await restIds(iso(clock + 1))).toEqual([]);
  });

  it('finds two writes within the same millisecond, the second after the client read the first', async () => {
    await write({ timesheets: [entry(9001, 100, 1001, 'Approved')] });
    // The client notes the time in the very millisecond of that write and reads.
    const noted = iso(clock);
    expect(await restIds(noted)).toEqual([9001]);
    // A second write in the same millisecond, committed after that read.
    await write({ timesheets: [entry(9003, 110, 1002, 'Approved')] });
    expect(await restIds(noted)).toEqual([9001, 9003]);
    expect(await graphqlIds(noted)).toEqual([9001, 9003]);
    expect(await stamp(9001)).toBe(await stamp(9003));
  });

  it('stamps a write when it is about to commit, not when its statements ran', async () => {
    let noted = '';
    await write(
      { timesheets: [entry(9002, 101, 1001, 'Rejected')] },
      {
        // Runs inside the import's transaction after every row is written: a client noting the
        // time here, and reading, cannot see the write yet, so its next query must find it.
        onChanges: async () => {
          clock += 1000;
          noted = iso(clock);
        },
      },
    );
    expect(await restIds(noted)).toEqual([9002]);
    expect(await stamp(9002)).toBe(noted);
  });

  it('never moves entries an import leaves as they are', async () => {
    const file = { timesheets: [entry(9001, 100, 1001, 'Queried'), entry(9002, 101, 1001, 'Queried')] };
    await write(file);
    const first = iso(clock);
    const stamps = [await stamp(9001), await stamp(9002), await stamp(9003)];
    clock += 60_000;
    // The same records again, and one of them changed.
    await write({ timesheets: [entry(9001, 100, 1001, 'Queried'), entry(9002, 101, 1001, 'Paid')] });
    expect(await restIds(iso(clock))).toEqual([9002]);
    expect(await stamp(9001)).toBe(stamps[0]);
    expect(await stamp(9003)).toBe(stamps[2]);
    clock += 60_000;
    const summary = await write(file.timesheets[0] ? { timesheets: [file.timesheets[0]] } : {});
    expect(summary.entities.timesheets.unchanged).toEqual([9001]);
    expect(await restIds(iso(clock))).toEqual([]);
    expect(await stamp(9001)).toBe(first);
  });

  it('counts a change to the site, customer or staff member an entry shows as a change of the entry', async () => {
    await write({ staff: [{ id: 1002, companyId: 1, staffId: 'S-1002', firstName: 'Samuel', lastName: 'Okafor' }] });
    const staffChange = iso(clock);
    expect(await restIds(staffChange)).toEqual([9003]);
    const renamed = expectEnvelope(await t.request('GET', `${PATH}/9003`, { token }), 200);
    expect(renamed.data.staffName).toBe('Samuel Okafor');
    clock += 60_000;
    await write({ sites: [{ id: 101, customerId: 10, name: 'Harbour Mall Car Park West' }] });
    expect(await restIds(iso(clock))).toEqual([9002]);
    clock += 60_000;
    await write({ customers: [{ id: 10, companyId: 1, name: 'Harbour Mall Group' }] });
    expect(await restIds(iso(clock))).toEqual([9001, 9002]);
    // Other companies' entries are never shown, changed or not.
    expect(await restIds(iso(START))).not.toContain(9004);
    clock += 60_000;
    // The same parent again changes nothing an entry shows.
    await write({ customers: [{ id: 10, companyId: 1, name: 'Harbour Mall Group' }] });
    expect(await restIds(iso(clock))).toEqual([]);
  });

  it('combines with the other filters and with Site.timesheets', async () => {
    await write({ timesheets: [entry(9001, 100, 1001, 'Locked'), entry(9002, 101, 1001, 'Locked'), entry(9003, 110, 1002, 'Open')] });
    const since = iso(clock);
    expect(await restIds(since, '&status=Locked')).toEqual([9001, 9002]);
    expect(await restIds(since, '&customerId=11')).toEqual([9003]);
    expect(await restIds(since, '&siteId=101&employeeId=1001')).toEqual([9002]);
    const sites = expectData(await t.graphql(token, SITE_LIST, { filter: { modifiedSince: since } })).sites.edges as {
      node: { siteApiId: number; timesheets: { edges: { node: { timesheetId: number } }[] } };
    }[];
    const bySite = Object.fromEntries(sites.map((s) => [s.node.siteApiId, s.node.timesheets.edges.map((e) => e.node.timesheetId)]));
    expect(bySite).toMatchObject({ 100: [9001], 101: [9002], 110: [9003] });
    const later = expectData(await t.graphql(token, SITE_LIST, { filter: { modifiedSince: iso(clock + 1) } })).sites.edges as {
      node: { timesheets: { edges: unknown[] } };
    }[];
    expect(later.every((s) => s.node.timesheets.edges.length === 0)).toBe(true);
  });
});
