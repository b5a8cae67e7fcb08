import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase, type Db } from '../../src/shared/db/knex.js';
import type { Principal } from '../../src/shared/principal.js';
import type { KeysetPage } from '../../src/shared/pagination/keyset.js';
import { timesheetPageQuery, type TimesheetFilter } from '../../src/repositories/timesheets.js';

/*
 * The timesheet list's plan on SQLite, read with EXPLAIN QUERY PLAN on the migrated schema (no
 * statistics, as in a fresh database): the timesheets table drives the join, and a page walks
 * timesheet_id (or a filter's (column, timesheet_id) index) in order, so it never sorts the
 * rows the key can see. This runs on SQLite whichever backend the suite uses: PostgreSQL plans
 * from its own statistics and is covered by the list and parity tests.
 */

const key = (scope: Partial<Principal>): Principal => ({ keyId: 1, keyType: 'timesheet', companyId: 1, customerIds: [], siteIds: [], ...scope });

const SCOPES: Record<string, Principal> = {
  'a company-wide key': key({}),
  'a key with customers': key({ customerIds: [1, 2, 3] }),
  'a key with one site': key({ siteIds: [11] }),
  'a key with customers and one site': key({ customerIds: [1], siteIds: [11] }),
};

const FILTERS: Record<string, TimesheetFilter> = {
  unfiltered: {},
  siteId: { siteId: 11 },
  'siteId + from/to': { siteId: 11, from: '2026-03-01T00:00:00.000Z', to: '2026-09-01T00:00:00.000Z' },
  customerId: { customerId: 2 },
  employeeId: { employeeId: 7 },
  status: { status: 'Approved' },
};

const PAGES: Record<string, KeysetPage> = {
  first: { direction: 'forward', from: null, size: 50, filter: null },
  after: { direction: 'forward', from: { key: 500, side: 'after' }, size: 50, filter: null },
  before: { direction: 'backward', from: { key: 500, side: 'before' }, size: 50, filter: null },
  last: { direction: 'backward', from: null, size: 50, filter: null },
};

describe('timesheet list plan (SQLite)', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shiftgate-plan-'));
    db = openDatabase(loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'plan.sqlite')}`, DATA_DIR: dir }));
    await migrateLatest(db);
  });

  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function planOf(principal: Principal, filter: TimesheetFilter, page: KeysetPage): Promise<string[]> {
    const { sql, bindings } = timesheetPageQuery(db, principal, filter, page).toSQL().toNative();
    const rows = (await db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as readonly Knex.RawBinding[])) as { detail: string }[];
    return rows.map((row) => row.detail);
  }

  for (const [scopeName, principal] of Object.entries(SCOPES)) {
    for (const [filterName, filter] of Object.entries(FILTERS)) {
      it(`${scopeName}, ${filterName}: every page starts at timesheets and needs no sort`, async () => {
        for (const [pageName, page] of Object.entries(PAGES)) {
          const plan = await planOf(principal, filter, page);
          expect(plan[0], `${pageName}: ${plan.join(' | ')}`).toMatch(/^(SCAN|SEARCH) t\b/);
          expect(plan, `${pageName}: ${plan.join(' | ')}`).not.toContain('USE TEMP B-TREE FOR ORDER BY');
        }
      });
    }
  }

  it('sees the sort where one is needed (the check reads real plans)', async () => {
    const plan = await planOf(SCOPES['a company-wide key']!, { from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' }, PAGES.first!);
    expect(plan).toContain('USE TEMP B-TREE FOR ORDER BY');
  });
});
