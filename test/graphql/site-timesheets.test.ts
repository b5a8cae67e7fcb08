import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectedIds, insertListedTimesheets } from '../support/timesheet-list-rows.js';
import { errorCodes, expectData, expectFieldError } from './helpers.js';

const SITE_TIMESHEETS = `query ($id: ID!, $first: Int, $after: String, $last: Int, $before: String, $filter: TimesheetFilter) {
  node(id: $id) { ... on Site { siteApiId timesheets(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
    edges { node { timesheetId siteApiId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  } } }
}`;

interface Page {
  edges: { node: { timesheetId: number; siteApiId: number } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

describe('Site.timesheets', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    await insertListedTimesheets(t.app.db);
    token = await t.token({ type: 'timesheet', companyId: 1 });
  });
  afterAll(() => t.close());

  const page = async (siteId: number, variables: Record<string, unknown>, key = token): Promise<Page> =>
    expectData(await t.graphql(key, SITE_TIMESHEETS, { id: encodeGlobalID('Site', siteId), ...variables })).node.timesheets as Page;
  const idsOf = (p: Page) => p.edges.map((e) => e.node.timesheetId);

  it('walks a site’s filtered entries forward and back with cursors alone', async () => {
    const filter = { status: 'Pending' };
    const want = expectedIds((x) => x.siteId === 101 && x.status === 'Pending');
    const seen: number[] = [];
    let p = await page(101, { first: 3, filter });
    seen.push(...idsOf(p));
    while (p.pageInfo.hasNextPage) {
      p = await page(101, { after: p.pageInfo.endCursor });
      seen.push(...idsOf(p));
    }
    expect(seen).toEqual(want);
    const lastStart = want.indexOf(idsOf(p)[0]!);
    const back = await page(101, { last: 3, before: p.pageInfo.startCursor });
    expect(idsOf(back)).toEqual(want.slice(lastStart - 3, lastStart));
  });

  it('keeps to the site: another siteId in the filter matches nothing', async () => {
    expect(idsOf(await page(100, { first: 50 }))).toEqual(expectedIds((x) => x.siteId === 100));
    expect(idsOf(await page(100, { first: 50, filter: { siteId: 100 } }))).toEqual(expectedIds((x) => x.siteId === 100));
    expect(idsOf(await page(100, { first: 50, filter: { siteId: 101 } }))).toEqual([]);
  });

  it('applies the timesheet key’s scope, batched across a page of sites', async () => {
    const siteKey = await t.token({ type: 'timesheet', companyId: 1, siteIds: [101] });
    const data = expectData(await t.graphql(siteKey, '{ sites(first: 10) { edges { node { siteApiId timesheets(first: 50) { edges { node { timesheetId } } } } } } }'));
    const sites = data.sites.edges.map((e: { node: { siteApiId: number; timesheets: Page } }) => e.node);
    expect(sites.map((s: { siteApiId: number }) => s.siteApiId)).toEqual([101]);
    expect(idsOf(sites[0].timesheets)).toEqual(expectedIds((x) => x.siteId === 101));
    const all = expectData(await t.graphql(token, '{ sites(first: 10) { edges { node { siteApiId timesheets(first: 50) { edges { node { timesheetId siteApiId } } } } } } }'));
    for (const { node } of all.sites.edges as { node: { siteApiId: number; timesheets: Page } }[]) {
      expect(idsOf(node.timesheets)).toEqual(expectedIds((x) => x.siteId === node.siteApiId));
    }
  });

  it('is FORBIDDEN to a developer key, while the site stays readable', async () => {
    const developer = await t.token({ type: 'developer', companyId: 1 });
    const data = expectFieldError(await t.graphql(developer, SITE_TIMESHEETS, { id: encodeGlobalID('Site', 100) }), 'FORBIDDEN', [
      'node',
      'timesheets',
    ]);
    expect(data.node.siteApiId).toBe(100);
  });

  it('reads the first page of every site on a site page in one statement', async () => {
    await t.graphql(token, '{ sites(first: 1) { edges { node { siteApiId } } } }');
    const { statements } = await t.countStatements(() =>
      t.graphql(token, '{ sites(first: 10) { edges { node { siteApiId timesheets(first: 50) { edges { node { timesheetId } } } } } } }'),
    );
    expect(statements, statements.join('\n')).toHaveLength(2);
  });

  // The default abuse limits: a page of sites with their first 50 entries each is one query;
  // 100 customers × 100 sites × 100 entries is refused before anything runs.
  describe('under the default limits', () => {
    let bulk: TestApp;
    let key: string;
    const SITES = Array.from({ length: 10 }, (_, i) => 700 + i);
    beforeAll(async () => {
      bulk = await startTestApp();
      await bulk.app.db('customers').insert({ id: 70, company_id: 1, name: 'Bulk' });
      await bulk.app.db('sites').insert(SITES.map((id) => ({ id, customer_id: 70, name: `Bulk ${id}` })));
      const rows = SITES.flatMap((siteId, s) =>
        Array.from({ length: 50 }, (_, i) => ({
          timesheet_id: 70_000 + s * 100 + i,
          site_id: siteId,
          employee_id: 1001,
          status: 'Pending',
          scheduled_start_time: new Date(Date.UTC(2026, 11, 1, i)).toISOString(),
        })),
      );
      await bulk.app.db.batchInsert('timesheets', rows, 50);
      key = await bulk.token({ type: 'timesheet', companyId: 1, customerIds: [70] });
    });
    afterAll(() => bulk.close());

    it('serves 10 sites with 50 entries each in one query', async () => {
      const data = expectData(
        await bulk.graphql(
          key,
          '{ sites(first: 10) { edges { node { siteApiId siteName timesheets(first: 50) { edges { node { timesheetId siteApiId status scheduledStartTime staffName employeeId } } } } } } }',
        ),
      );
      const sites = data.sites.edges.map((e: { node: { siteApiId: number; timesheets: Page } }) => e.node);
      expect(sites.map((s: { siteApiId: number }) => s.siteApiId)).toEqual(SITES);
      for (const site of sites) {
        expect(site.timesheets.edges).toHaveLength(50);
        for (const edge of site.timesheets.edges) expect(edge.node.siteApiId).toBe(site.siteApiId);
      }
    });

    it('refuses 100 customers × 100 sites × 100 entries by its cost', async () => {
      const res = await bulk.graphql(
        key,
        '{ customers(first: 100) { edges { node { sites(first: 100) { edges { node { timesheets(first: 100) { edges { node { timesheetId } } } } } } } } } }',
      );
      expect(res.body.data).toBeUndefined();
      expect(errorCodes(res.body)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(res.body.errors?.[0]?.message).toMatch(/cost/i);
    });

    const NESTED = `query ($c: Int, $s: Int, $t: Int = 100) {
      customers(first: $c) { edges { node { sites(first: $s) { edges { node { timesheets(last: $t) { edges { node { timesheetId } } } } } } } } }
    }`;

    it('serves 10 sites with 50 entries each when the page sizes are variables', async () => {
      const data = expectData(
        await bulk.graphql(
          key,
          'query ($sites: Int!, $entries: Int!) { sites(first: $sites) { edges { node { siteApiId timesheets(first: $entries) { edges { node { timesheetId siteApiId status scheduledStartTime staffName employeeId } } } } } } }',
          { sites: 10, entries: 50 },
        ),
      );
      expect(data.sites.edges).toHaveLength(10);
      for (const edge of data.sites.edges) expect(edge.node.timesheets.edges).toHaveLength(50);
    });

    it('refuses 100 × 100 × 100 by its cost when the page sizes are variables, and any default too', async () => {
      for (const variables of [{ c: 100, s: 100, t: 100 }, { c: 100, s: 100 }]) {
        for (const accept of ['application/graphql-response+json', 'application/json']) {
          const res = await bulk.request('POST', '/graphql', { token: key, body: { query: NESTED, variables }, headers: { accept } });
          expect(res.status, res.text).toBe(accept === 'application/json' ? 200 : 400);
          expect(res.body).not.toHaveProperty('data');
          expect(errorCodes(res.body)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
          expect(res.body.errors?.[0]?.message).toMatch(new RegExp(`cost limit of ${defaultConfig().limits.graphql.maxCost} exceeded`, 'i'));
        }
      }
      // The same document with small variables is served: the estimate follows the values.
      const small = expectData(await bulk.graphql(key, NESTED, { c: 2, s: 2, t: 2 }));
      expect(small.customers.edges.length).toBeGreaterThan(0);
    });
  });
});
