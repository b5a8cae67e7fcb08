import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectedIds, insertListedTimesheets } from '../support/timesheet-list-rows.js';
import { errorCodes, expectData, expectFieldError } from './helpers.js';

const LIST = `query ($first: Int, $last: Int, $after: String, $before: String, $filter: TimesheetFilter) {
  timesheets(first: $first, last: $last, after: $after, before: $before, filter: $filter) {
    edges { node { timesheetId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface Page {
  edges: { node: { timesheetId: number } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

describe('Query.timesheets', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    await insertListedTimesheets(t.app.db);
    token = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  const page = async (variables: Record<string, unknown>, key = token): Promise<Page> =>
    expectData(await t.graphql(key, LIST, variables)).timesheets as Page;
  const idsOf = (p: Page) => p.edges.map((e) => e.node.timesheetId);

  it('walks the filtered list forward and back with cursors alone', async () => {
    const filter = { customerId: 10, status: 'Pending' };
    const want = expectedIds((x) => x.customerId === 10 && x.status === 'Pending');
    const seen: number[] = [];
    let p = await page({ first: 4, filter });
    seen.push(...idsOf(p));
    while (p.pageInfo.hasNextPage) {
      p = await page({ after: p.pageInfo.endCursor });
      seen.push(...idsOf(p));
    }
    expect(seen).toEqual(want);
    const back = await page({ before: p.pageInfo.startCursor });
    expect(idsOf(back)).toEqual(want.slice(-(p.edges.length + 4), -p.edges.length));
  });

  it('filters by scheduled start with DateTime bounds', async () => {
    const p = await page({ first: 100, filter: { from: '2026-12-01T10:00:00+00:00', to: '2026-12-01T12:00:00Z' } });
    expect(idsOf(p)).toEqual(expectedIds((x) => x.start >= '2026-12-01T10:00:00.000Z' && x.start < '2026-12-01T12:00:00.000Z'));
  });

  it('filters by modifiedSince alone and combined, paging forward and back with the cursor alone', async () => {
    const since = '2026-10-06T12:00:00.000Z';
    const alone = await page({ first: 100, filter: { modifiedSince: '2026-10-06T14:00:00+02:00' } });
    expect(idsOf(alone)).toEqual(expectedIds((x) => x.modified >= since));
    const filter = { customerId: 10, modifiedSince: since };
    const want = expectedIds((x) => x.customerId === 10 && x.modified >= since);
    const seen: number[] = [];
    let p = await page({ first: 3, filter });
    seen.push(...idsOf(p));
    while (p.pageInfo.hasNextPage) {
      p = await page({ first: 3, after: p.pageInfo.endCursor });
      seen.push(...idsOf(p));
    }
    expect(seen).toEqual(want);
    expect(want.length).toBeGreaterThan(3);
    const back = await page({ last: 3, before: p.pageInfo.startCursor });
    expect(idsOf(back)).toEqual(want.slice(-(p.edges.length + 3), -p.edges.length));
  });

  it('refuses an invalid modifiedSince and a cursor given with another one', async () => {
    for (const modifiedSince of ['yesterday', '2026-12-01T10:00:00', '2026-02-30T10:00:00Z', 5]) {
      const res = await t.graphql(token, LIST, { filter: { modifiedSince } });
      expect(res.body.data ?? null, String(modifiedSince)).toBeNull();
      expect(JSON.stringify(res.body.errors), String(modifiedSince)).toContain('modifiedSince');
    }
    const literal = await t.graphql(token, '{ timesheets(filter: { modifiedSince: "soon" }) { edges { node { timesheetId } } } }');
    expect(errorCodes(literal.body)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const p = await page({ first: 2, filter: { modifiedSince: '2026-10-02T00:00:00Z' } });
    const other = await t.graphql(token, LIST, { after: p.pageInfo.endCursor, filter: { modifiedSince: '2026-10-03T00:00:00Z' } });
    expect(errorCodes(other.body)).toContain('BAD_USER_INPUT');
    const dropped = await t.graphql(token, LIST, { after: p.pageInfo.endCursor, filter: { siteId: 100 } });
    expect(errorCodes(dropped.body)).toContain('BAD_USER_INPUT');
  });

  it('refuses a cursor given with a different filter', async () => {
    const p = await page({ first: 2, filter: { siteId: 100 } });
    const res = await t.graphql(token, LIST, { after: p.pageInfo.endCursor, filter: { siteId: 101 } });
    expect(errorCodes(res.body)).toContain('BAD_USER_INPUT');
  });

  it('gives an empty list for another company’s site', async () => {
    const p = await page({ filter: { siteId: 200 } });
    expect(p.edges).toEqual([]);
    expect(p.pageInfo.hasNextPage).toBe(false);
  });

  it('shows each kind of key exactly what the REST list and the single read show', async () => {
    const all = async (key: string) => idsOf(await page({ first: 100 }, key));
    const scoped = (options: { customerIds?: number[]; siteIds?: number[]; companyId?: number }) =>
      t.token({ type: 'timesheet', companyId: 1, ...options });
    expect(await all(await scoped({ customerIds: [11] }))).toEqual(expectedIds((x) => x.customerId === 11));
    expect(await all(await scoped({ siteIds: [100, 101] }))).toEqual(expectedIds((x) => x.siteId !== 110));
    expect(await all(await scoped({ customerIds: [10], siteIds: [100, 110] }))).toEqual(expectedIds((x) => x.siteId === 100));
    expect(await all(await scoped({ companyId: 2 }))).toEqual([9004, 9201, 9202, 9203]);
  });

  it('is FORBIDDEN to a developer key', async () => {
    const developer = await t.token({ type: 'developer', companyId: 1 });
    expectFieldError(await t.graphql(developer, LIST, {}), 'FORBIDDEN', ['timesheets']);
  });
});
