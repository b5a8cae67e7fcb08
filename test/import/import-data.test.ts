import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMPORT_PAGE_CACHE_KIB, importData, importScanned, ImportValidationError, scanImport, type ImportChanges, type ImportProgress } from '../../src/import/import-data.js';
import { upsertRows, writeDirectly } from '../../src/repositories/import-tables.js';
import type { Tx } from '../../src/shared/db/knex.js';
import { memorySource } from '../../src/import/source.js';
import type { Section } from '../../src/import/format.js';
import { fullFile, SECRET_A, snapshot, tempDatabase, type TempDatabase } from './support.js';
import { storedBoolean, testBackend } from '../support/backend.js';

let t: TempDatabase;
beforeEach(async () => {
  t = await tempDatabase();
});
afterEach(async () => {
  await t.close();
});

describe('importData', () => {
  it('stores a full file normalised and reports every id as inserted', async () => {
    const summary = await importData(t.db, fullFile());

    expect(summary.entities.companies).toEqual({ inserted: [1, 2], updated: [], unchanged: [] });
    expect(summary.entities.timesheets.inserted).toEqual([9001, 9002]);
    expect(summary.entities.eventFilters.inserted).toEqual([3011, 3012]);
    expect(summary.generatedSigningSecrets).toEqual([401]);

    const timesheet = await t.db('timesheets').where('timesheet_id', 9001).first();
    expect(timesheet).toMatchObject({
      site_id: 100,
      employee_id: 1001,
      scheduled_start_time: '2026-01-31T08:00:00.000Z',
      scheduled_end_time: '2026-01-31T16:00:00.000Z',
      timeclock_end_time: '2026-01-31T16:01:00.500Z',
      clock_in_coordinates: JSON.stringify({ latitude: -33.86, longitude: 151.2 }),
      notes: JSON.stringify([{ text: 'Quiet night' }]),
      pay_break_time: 30,
      invoice_break_time: 0,
      approved_by: null,
      lock: storedBoolean(false),
      schedule_notes: JSON.stringify({ brief: 'Check the loading dock' }),
    });
    const sparse = await t.db('timesheets').where('timesheet_id', 9002).first();
    expect(sparse).toMatchObject({ status: 'APPROVED', entry_type: null, notes: null, lock: null });

    const licenses = await t.db('licenses').orderBy('security_license_id');
    expect(licenses.map((l) => l.expiry_date)).toEqual(['2027-06-30T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(licenses[0]).toMatchObject({ critical: storedBoolean(true), is_invalid_license: storedBoolean(false), reminder: 30 });

    const subscribers = await t.db('subscribers').orderBy('id');
    expect(subscribers[0].signing_secret).toBe(SECRET_A);
    expect(subscribers[1].signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(subscribers[1].signing_secret.slice(6), 'base64')).toHaveLength(32);
    expect(await t.db('event_filters').orderBy('id')).toEqual([
      { id: 3011, subscriber_id: 301, event: 'timesheet', event_type: 'approved' },
      { id: 3012, subscriber_id: 301, event: 'license', event_type: 'expiring' },
    ]);
  });

  it('reports an identical re-import as unchanged and writes nothing', async () => {
    await importData(t.db, fullFile());
    const before = await snapshot(t.db);

    const summary = await importData(t.db, fullFile());

    for (const [entity, outcome] of Object.entries(summary.entities)) {
      expect(outcome.inserted, entity).toEqual([]);
      expect(outcome.updated, entity).toEqual([]);
    }
    expect(summary.entities.timesheets.unchanged).toEqual([9001, 9002]);
    // The generated secret of subscriber 401 is kept, not regenerated.
    expect(summary.generatedSigningSecrets).toEqual([]);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('treats the same instant written in another zone as unchanged', async () => {
    await importData(t.db, fullFile());
    const file = fullFile();
    file.timesheets[0]!.scheduledStartTime = '2026-01-31T08:00:00.000Z';
    const summary = await importData(t.db, file);
    expect(summary.entities.timesheets.unchanged).toContain(9001);
  });

  it('updates changed records, nulls omitted optional fields and leaves the rest alone', async () => {
    await importData(t.db, fullFile());
    const file = fullFile();
    file.companies[1]!.name = 'Renamed Guard Co';
    delete (file.timesheets[0] as { notes?: unknown }).notes;
    file.licenses[1]!.expiryDate = '2028-01-01';

    const summary = await importData(t.db, file);

    expect(summary.entities.companies).toEqual({ inserted: [], updated: [2], unchanged: [1] });
    expect(summary.entities.timesheets).toEqual({ inserted: [], updated: [9001], unchanged: [9002] });
    expect(summary.entities.licenses).toEqual({ inserted: [], updated: [50002], unchanged: [50001] });
    expect((await t.db('companies').where('id', 2).first()).name).toBe('Renamed Guard Co');
    expect((await t.db('timesheets').where('timesheet_id', 9001).first()).notes).toBeNull();
    expect((await t.db('licenses').where('security_license_id', 50002).first()).expiry_date).toBe('2028-01-01T00:00:00.000Z');
  });

  it('resolves references from the database when the file does not declare them', async () => {
    await importData(t.db, fullFile());
    const summary = await importData(t.db, {
      timesheets: [{ timesheetId: 9100, siteId: 100, employeeId: 1001 }],
      licenses: [{ securityLicenseId: 50100, employeeId: 2001 }],
    });
    expect(summary.entities.timesheets.inserted).toEqual([9100]);
    expect(summary.entities.licenses.inserted).toEqual([50100]);
  });

  it('lets records move to another parent of their company as long as the new one exists', async () => {
    const file = fullFile();
    file.customers.push({ id: 11, companyId: 1, name: 'Quay Arcade' });
    await importData(t.db, file);
    const summary = await importData(t.db, {
      sites: [{ id: 100, customerId: 11, name: 'North Gate' }],
      subscribers: [{ id: 301, companyId: 1, name: 'Acme payroll (new)' }],
    });
    expect(summary.entities.sites.updated).toEqual([100]);
    expect((await t.db('sites').where('id', 100).first()).customer_id).toBe(11);
    // Leaving signingSecret out of an existing subscriber keeps the stored one.
    expect((await t.db('subscribers').where('id', 301).first()).signing_secret).toBe(SECRET_A);
  });

  it('lets two filters of one subscriber swap their pairs in one import', async () => {
    await importData(t.db, fullFile());
    const summary = await importData(t.db, {
      subscribers: [
        {
          id: 301,
          companyId: 1,
          name: 'Acme payroll',
          eventFilters: [
            { id: 3011, event: 'license', eventType: 'expiring' },
            { id: 3012, event: 'timesheet', eventType: 'approved' },
          ],
        },
      ],
    });
    expect(summary.entities.eventFilters.updated).toEqual([3011, 3012]);
    expect(await t.db('event_filters').orderBy('id')).toEqual([
      { id: 3011, subscriber_id: 301, event: 'license', event_type: 'expiring' },
      { id: 3012, subscriber_id: 301, event: 'timesheet', event_type: 'approved' },
    ]);
  });

  it('imports more rows than one statement or id list can hold', async () => {
    const file = fullFile();
    const timesheets = [];
    for (let i = 0; i < 10_000; i++) {
      timesheets.push({ timesheetId: 100_000 + i, siteId: 100, employeeId: 1001, status: 'Pending', notes: [{ n: i }] });
    }
    const summary = await importData(t.db, { ...file, timesheets });
    expect(summary.entities.timesheets.inserted).toHaveLength(10_000);
    expect(await t.db('timesheets').count({ n: '*' })).toEqual([{ n: 10_000 }]);

    timesheets[9_999]!.status = 'Approved';
    const again = await importData(t.db, { ...file, timesheets });
    expect(again.entities.timesheets.updated).toEqual([109_999]);
    expect(again.entities.timesheets.unchanged).toHaveLength(9_999);
  });
});

describe('the onChanges hook', () => {
  it('runs inside the transaction with each timesheet and license outcome', async () => {
    await importData(t.db, fullFile());
    const file = fullFile();
    file.timesheets[0]!.status = 'approved';
    file.timesheets.push({ timesheetId: 9003, siteId: 100, employeeId: 1001, status: 'Approved' });
    file.licenses[0]!.status = 'Expired';
    let seen: ImportChanges | undefined;
    let visibleInside: unknown;

    await importData(t.db, file, {
      async onChanges(trx, changes) {
        seen = changes;
        visibleInside = (await trx('timesheets').where('timesheet_id', 9003).first())?.status;
      },
    });

    expect(visibleInside).toBe('Approved');
    expect(seen?.timesheets).toEqual([
      { timesheetId: 9001, outcome: 'updated', statusBefore: 'Pending', statusAfter: 'approved', becameApproved: true },
      { timesheetId: 9002, outcome: 'unchanged', statusBefore: 'APPROVED', statusAfter: 'APPROVED', becameApproved: false },
      { timesheetId: 9003, outcome: 'inserted', statusBefore: null, statusAfter: 'Approved', becameApproved: true },
    ]);
    expect(seen?.licenses).toEqual([
      { securityLicenseId: 50001, outcome: 'updated' },
      { securityLicenseId: 50002, outcome: 'unchanged' },
    ]);
  });

  it('hands a large import its changes in parts: every timesheet before any license, in file order', async () => {
    const file = fullFile();
    for (let i = 0; i < 9_999; i++) file.timesheets.push({ timesheetId: 100_000 + i, siteId: 100, employeeId: 1001 } as (typeof file.timesheets)[number]);
    const parts: ImportChanges[] = [];
    await importData(t.db, file, {
      async onChanges(_trx, changes) {
        parts.push(changes);
      },
    });
    expect(parts.map((p) => [p.timesheets.length, p.licenses.length])).toEqual([
      [10_000, 0],
      [1, 2],
    ]);
    expect(parts[0]!.timesheets[0]!.timesheetId).toBe(9001);
    expect(parts[1]!.timesheets[0]!.timesheetId).toBe(109_998);
    expect(parts[1]!.licenses).toEqual([
      { securityLicenseId: 50001, outcome: 'inserted' },
      { securityLicenseId: 50002, outcome: 'inserted' },
    ]);
  });

  it('rolls every write back when it fails', async () => {
    await importData(t.db, fullFile());
    const before = await snapshot(t.db);
    const file = fullFile();
    file.companies.push({ id: 3, name: 'New Co' });
    file.timesheets[0]!.status = 'Approved';

    const attempt = importData(t.db, file, {
      async onChanges(trx) {
        // A real database error, not just a thrown value.
        await trx('no_such_table').insert({ id: 1 });
      },
    });

    await expect(attempt).rejects.toThrow(/no_such_table/);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('is not called when the file is invalid', async () => {
    let called = false;
    const attempt = importData(t.db, { companies: [{ id: 0, name: 'x' }] }, {
      async onChanges() {
        called = true;
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(ImportValidationError);
    expect(called).toBe(false);
  });
});

describe('the onProgress hook', () => {
  it('reports validated, compared and written records, in steps on a large file', async () => {
    const file = fullFile();
    const timesheets = [];
    for (let i = 0; i < 2_500; i++) timesheets.push({ timesheetId: 100_000 + i, siteId: 100, employeeId: 1001 });
    const seen: ImportProgress[] = [];
    await importData(t.db, { ...file, timesheets }, { onProgress: (p) => seen.push(p) });

    const total = 2_500 + 14;
    expect(seen[0]).toEqual({ stage: 'validated', done: total, total });
    const compared = seen.filter((p) => p.stage === 'compared');
    expect(compared.at(-1)).toEqual({ stage: 'compared', done: total, total });
    const written = seen.filter((p) => p.stage === 'written').map((p) => p.done);
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written).toEqual([...written].sort((a, b) => a - b));
    expect(written.at(-1)).toBe(total);
    expect(seen.findIndex((p) => p.stage === 'written')).toBeGreaterThan(seen.findIndex((p) => p.stage === 'compared'));
  });

  it('counts only changed records as written on a re-import', async () => {
    await importData(t.db, fullFile());
    const file = fullFile();
    file.companies[0]!.name = 'Acme Security Pty Ltd';
    const seen: ImportProgress[] = [];
    await importData(t.db, file, { onProgress: (p) => seen.push(p) });
    expect(seen.filter((p) => p.stage === 'written').at(-1)).toEqual({ stage: 'written', done: 1, total: 1 });
  });
});

describe('the page cache of an import on SQLite', () => {
  it('is widened while the import runs and handed back when it ends, committed or not', async () => {
    const sqlite = testBackend() === 'sqlite';
    // The page cache of the transaction's SQLite connection, in KiB (null on PostgreSQL).
    const pageCacheKib = async (trx: Tx): Promise<number | null> => {
      if (!sqlite) return null;
      const [{ cache_size: pages }] = (await trx.raw('PRAGMA cache_size')) as [{ cache_size: number }];
      const [{ page_size: size }] = (await trx.raw('PRAGMA page_size')) as [{ page_size: number }];
      return pages < 0 ? -pages : (pages * size) / 1024;
    };
    const during: (number | null)[] = [];
    const outside = () => t.db.transaction((trx) => pageCacheKib(trx));
    const before = await outside();
    await importData(t.db, fullFile(), { onChanges: async (trx) => void during.push(await pageCacheKib(trx)) });
    await expect(
      importData(t.db, fullFile(), {
        onChanges: async (trx) => {
          during.push(await pageCacheKib(trx));
          throw new Error('rolled back');
        },
      }),
    ).rejects.toThrow('rolled back');
    expect(during).toEqual(sqlite ? [IMPORT_PAGE_CACHE_KIB, IMPORT_PAGE_CACHE_KIB] : [null, null]);
    expect(await outside()).toBe(before);
    if (sqlite) expect(before).toBeLessThan(IMPORT_PAGE_CACHE_KIB);
  });
});

describe('records above the stored ids', () => {
  it('are inserted without a stored-row read, and stored ids in later chunks are still compared', async () => {
    await importData(t.db, fullFile());
    const { staff } = fullFile();
    const stored = fullFile().licenses;
    const licenses: object[] = Array.from({ length: 1_200 }, (_, i) => ({ securityLicenseId: 60_000 + i, employeeId: 1001, state: 'VIC' }));
    licenses[700] = { ...stored[1], state: 'QLD' };
    licenses[1_100] = stored[0]!;
    const summary = await importData(t.db, { companies: fullFile().companies, staff, licenses });
    expect(summary.entities.licenses.updated).toEqual([50002]);
    expect(summary.entities.licenses.unchanged).toEqual([50001]);
    expect(summary.entities.licenses.inserted).toHaveLength(1_198);
    expect(summary.entities.staff.unchanged).toEqual([1001, 2001]);
    expect(await t.db('licenses').where('security_license_id', 50002).first()).toMatchObject({ state: 'QLD', employee_id: 2001 });
    expect(await t.db('licenses').count({ n: '*' }).first()).toEqual({ n: 1_200 });
  });
});

describe('the second reading', () => {
  it('reads only the sections the first reading found elements in', async () => {
    const { companies, staff, licenses } = fullFile();
    const scanned = await scanImport(memorySource({ companies, staff, licenses, customers: [], sites: null }));
    const read: string[] = [];
    const source = {
      scan: scanned.source.scan,
      close: scanned.source.close,
      elements: (section: Section, each: (value: unknown, index: number) => void | Promise<void>) => {
        read.push(section);
        return scanned.source.elements(section, each);
      },
    };
    const summary = await importScanned(t.db, { ...scanned, source });
    expect(read).toEqual(['companies', 'staff', 'licenses']);
    expect(summary.entities.licenses.inserted).toEqual([50001, 50002]);
  });
});

describe('the rows an import writes', () => {
  const row = (id: number, state: string) => ({
    security_license_id: id,
    employee_id: 1001,
    state,
    license_number: null,
    status: null,
    expiry_date: null,
    reminder: null,
    critical: true,
    attachment_link: null,
    licence_sector: null,
    is_invalid_license: false,
  });

  for (const direct of [false, true]) {
    it(`replaces a stored row and inserts a new one, in one call, in order${direct ? ', writing directly where the backend allows' : ''}`, async () => {
      await importData(t.db, fullFile());
      const stored = 50001;
      const id = direct ? 70_002 : 70_001;
      await t.db.transaction(async (trx) => {
        if (direct) writeDirectly(t.db, trx);
        await upsertRows(trx, 'licenses', 'security_license_id', [row(stored, direct ? 'VIC' : 'QLD'), row(id, 'WA')], 11, [true, false]);
      });
      expect(await t.db('licenses').whereIn('security_license_id', [stored, id]).orderBy('security_license_id').select('state')).toEqual([
        { state: direct ? 'VIC' : 'QLD' },
        { state: 'WA' },
      ]);
    });
  }
});
