import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { apiKeyPrefix, hashApiKey } from '../src/auth/api-key-secret.js';
import { migrateLatest, openDatabase } from '../src/shared/db/knex.js';
import { defaultConfig } from '../src/config.js';

/**
 * The benchmark's data set: two SQLite files with the same companies, staff, timesheets and
 * API keys. `small` holds 10,000 licenses, `large` the same rows plus enough to make
 * 1,000,000; the hot staff member's licenses are identical in both, so their pages match.
 * Files are cached in the temp directory, keyed by this generator and the migrations.
 */

export const SUB_KEY = 'bench-subscription-key';
export const JWT_SECRET = 'bench-jwt-secret-bench-jwt-secret-0123456789';
export const DEVELOPER_API_KEY = 'sgk_bench_developer_key_company_1_000000000000000000000';
export const TIMESHEET_API_KEY = 'sgk_bench_timesheet_key_company_1_000000000000000000000';
/** Company 1's staff member whose license pages are read (≥ 200 licenses). */
export const HOT_STAFF_ID = 7;
/** The timesheet key sees company 1, customers 1–6 (of 1–12), every site of those. */
export const TIMESHEET_KEY_CUSTOMERS = [1, 2, 3, 4, 5, 6];

const GENERATOR_VERSION = 4;
const TIMESHEETS = 12_000;
const LARGE_TIMESHEETS = 1_000_000;
const SMALL_LICENSES = 10_000;
const LARGE_LICENSES = 1_000_000;
const STAFF_COMPANY_1 = 1_000;
const STAFF_COMPANY_2 = 200;
/** Staff with many licenses: id → count (in both files). */
const HEAVY_STAFF = new Map([
  [HOT_STAFF_ID, 240],
  [8, 600],
  [1_005, 300],
]);

export interface Dataset {
  small: string;
  large: string;
  /** The small file plus timesheets up to 1,000,000 (its first 12,000 are the small file's). */
  timesheetsLarge: string;
  licensesSmall: number;
  licensesLarge: number;
  timesheets: number;
  timesheetsLargeCount: number;
  generatedNow: boolean;
  generationSeconds: number;
}

/** Deterministic PRNG (mulberry32), so every generation gives the same bodies. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Alex', 'Sam', 'Jo', 'Priya', 'Liam', 'Mei', 'Noah', 'Aisha', 'Tom', 'Zara', 'Ravi', 'Olga'];
const LAST = ['Nguyen', 'Okafor', 'Rivera', 'Smith', 'Kowalski', 'Tanaka', 'Haddad', 'Brown', 'Silva', 'Kim'];
const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS'];
const STATUSES = ['Active', 'Expired', 'Suspended', 'Pending'];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function cacheKey(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const migrationsDir = join(here, '..', 'src', 'shared', 'db', 'migrations');
  const hash = createHash('sha256').update(`v${GENERATOR_VERSION}`);
  for (const file of readdirSync(migrationsDir).sort()) hash.update(file).update(readFileSync(join(migrationsDir, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Creates the schema through the gateway's own migrations, so the files match what it expects. */
async function createSchema(file: string): Promise<void> {
  const db = openDatabase({ database: { client: 'sqlite', filename: file }, poolMin: 0, poolMax: 1, sqliteBusyTimeoutMs: defaultConfig().sqliteBusyTimeoutMs });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

function fillBase(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = OFF');
  const rand = prng(20_260_101);
  const run = db.transaction(() => {
    db.prepare('INSERT INTO companies (id, name) VALUES (?, ?)').run(1, 'Acme Security');
    db.prepare('INSERT INTO companies (id, name) VALUES (?, ?)').run(2, 'Other Guard Co');
    const customer = db.prepare('INSERT INTO customers (id, company_id, name) VALUES (?, ?, ?)');
    const site = db.prepare('INSERT INTO sites (id, customer_id, name) VALUES (?, ?, ?)');
    const sitesByCompany = new Map<number, number[]>([[1, []], [2, []]]);
    for (let c = 1; c <= 16; c++) {
      const company = c <= 12 ? 1 : 2;
      customer.run(c, company, `Customer ${c} Pty Ltd`);
      for (let s = 1; s <= 4; s++) {
        const id = c * 10 + s;
        site.run(id, c, `Customer ${c} site ${s}`);
        sitesByCompany.get(company)!.push(id);
      }
    }
    const staff = db.prepare(
      `INSERT INTO staff (id, company_id, staff_id, first_name, last_name, employee_reference_number, email, mobile, subcontractor_company)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const staffByCompany = new Map<number, number[]>([[1, []], [2, []]]);
    for (let id = 1; id <= STAFF_COMPANY_1 + STAFF_COMPANY_2; id++) {
      const company = id <= STAFF_COMPANY_1 ? 1 : 2;
      const first = pick(rand, FIRST);
      const last = pick(rand, LAST);
      staff.run(
        id,
        company,
        `S-${id}`,
        first,
        last,
        rand() < 0.8 ? `REF-${100000 + id}` : null,
        `${first.toLowerCase()}.${last.toLowerCase()}${id}@example.com`,
        `+614${String(10000000 + id).slice(-8)}`,
        rand() < 0.2 ? 'Subco Guarding' : null,
      );
      staffByCompany.get(company)!.push(id);
    }
    insertLicenses(db, rand, 1, SMALL_LICENSES, true);
    insertTimesheets(db, rand, 1, TIMESHEETS, sitesByCompany, staffByCompany);
    const key = db.prepare(
      `INSERT INTO api_keys (id, key_hash, key_prefix, key_type, company_id, customer_ids, site_ids, name, created_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    );
    const created = '2026-01-01T00:00:00.000Z';
    key.run(1, hashApiKey(DEVELOPER_API_KEY), apiKeyPrefix(DEVELOPER_API_KEY), 'developer', 1, '[]', '[]', 'bench developer', created);
    key.run(
      2,
      hashApiKey(TIMESHEET_API_KEY),
      apiKeyPrefix(TIMESHEET_API_KEY),
      'timesheet',
      1,
      JSON.stringify(TIMESHEET_KEY_CUSTOMERS),
      '[]',
      'bench timesheet',
      created,
    );
  });
  run();
  db.close();
}

/** Timesheets with ids from..to at random sites and staff of a random company, through 2026. */
function insertTimesheets(
  db: Database.Database,
  rand: () => number,
  from: number,
  to: number,
  sitesByCompany: Map<number, number[]>,
  staffByCompany: Map<number, number[]>,
): void {
  const timesheet = db.prepare(
    `INSERT INTO timesheets (timesheet_id, site_id, employee_id, entry_type, position, service, paygroup,
       scheduled_start_time, scheduled_end_time, timeclock_start_time, timeclock_break_start_time, timeclock_break_end_time,
       timeclock_end_time, pay_start_time, pay_end_time, invoice_start_time, invoice_end_time, approved_date_time,
       customer_approved_date_time, clock_in_coordinates, clock_out_coordinates, staff_submitted_timesheet_times,
       pay_break_time, invoice_break_time, notes, allowances, status, approved_by, customer_approval_status,
       customer_approver, lock, schedule_notes)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const base = Date.UTC(2026, 0, 1);
  for (let id = from; id <= to; id++) {
    const company = rand() < 0.75 ? 1 : 2;
    const siteId = pick(rand, sitesByCompany.get(company)!);
    const employeeId = pick(rand, staffByCompany.get(company)!);
    const start = base + Math.floor(rand() * 300) * 86_400_000 + Math.floor(rand() * 24) * 3_600_000;
    const end = start + 8 * 3_600_000;
    const clockIn = start - Math.floor(rand() * 10) * 60_000;
    const clockOut = end + Math.floor(rand() * 10) * 60_000;
    const approved = rand() < 0.6;
    const hadBreak = rand() < 0.7;
    timesheet.run(
      id,
      siteId,
      employeeId,
      'Shift',
      pick(rand, ['Guard', 'Supervisor', 'Patrol']),
      pick(rand, ['Static guarding', 'Mobile patrol', 'Event security']),
      pick(rand, ['Weekly', 'Fortnightly']),
      iso(start),
      iso(end),
      iso(clockIn),
      hadBreak ? iso(start + 4 * 3_600_000) : null,
      hadBreak ? iso(start + 4.5 * 3_600_000) : null,
      iso(clockOut),
      iso(start),
      iso(end),
      iso(start),
      iso(end),
      approved ? iso(end + 86_400_000) : null,
      approved && rand() < 0.5 ? iso(end + 2 * 86_400_000) : null,
      JSON.stringify({ latitude: -33.8 - rand() / 10, longitude: 151.2 + rand() / 10 }),
      JSON.stringify({ latitude: -33.8 - rand() / 10, longitude: 151.2 + rand() / 10 }),
      rand() < 0.3 ? JSON.stringify({ start: iso(clockIn), end: iso(clockOut) }) : null,
      hadBreak ? 30 : 0,
      hadBreak ? 30 : 0,
      JSON.stringify(rand() < 0.5 ? [{ text: 'All quiet', author: 'supervisor' }] : []),
      JSON.stringify(rand() < 0.2 ? [{ code: 'NIGHT', amount: 12.5 }] : []),
      approved ? 'Approved' : 'Pending',
      approved ? 'Supervisor Jones' : null,
      approved ? 'Approved' : 'Pending',
      approved ? 'Customer Lee' : null,
      approved ? 1 : 0,
      rand() < 0.1 ? JSON.stringify([{ text: 'Bring hi-vis' }]) : null,
    );
  }
}

const LICENSE_INSERT = `INSERT INTO licenses (security_license_id, employee_id, state, license_number, status, expiry_date,
  reminder, critical, attachment_link, licence_sector, is_invalid_license) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Licenses with ids from..to. In the base file the heavy staff get their fixed counts
 * spread through the id range; all other rows (and every row added for the large file)
 * go to ordinary staff of either company, never to the heavy ones.
 */
function insertLicenses(db: Database.Database, rand: () => number, from: number, to: number, withHeavy: boolean): void {
  const insert = db.prepare(LICENSE_INSERT);
  const total = to - from + 1;
  const heavyIds = new Map<number, number>();
  if (withHeavy) {
    // Evenly spaced ids for each heavy staff member, offset so they do not collide.
    let offset = 0;
    for (const [staffId, count] of HEAVY_STAFF) {
      const step = Math.floor(total / count);
      for (let i = 0; i < count; i++) heavyIds.set(from + offset + i * step, staffId);
      offset++;
    }
  }
  const ordinary = () => {
    for (;;) {
      const id = 1 + Math.floor(rand() * (STAFF_COMPANY_1 + STAFF_COMPANY_2));
      if (!HEAVY_STAFF.has(id)) return id;
    }
  };
  const expiryBase = Date.UTC(2026, 0, 1);
  for (let id = from; id <= to; id++) {
    const employeeId = heavyIds.get(id) ?? ordinary();
    const state = STATES[id % STATES.length]!;
    insert.run(
      id,
      employeeId,
      state,
      `${state}-${String(id).padStart(7, '0')}`,
      STATUSES[id % STATUSES.length]!,
      iso(expiryBase + (id % 1000) * 86_400_000),
      id % 3 === 0 ? null : 30,
      id % 2,
      id % 5 === 0 ? null : `https://files.example.com/licenses/${id}.pdf`,
      id % 7 === 0 ? 'Crowd control' : 'Security',
      id % 11 === 0 ? 1 : 0,
    );
  }
}

/** Company → its site ids and its staff ids, as fillBase creates them. */
function organisation(): { sitesByCompany: Map<number, number[]>; staffByCompany: Map<number, number[]> } {
  const sitesByCompany = new Map<number, number[]>([[1, []], [2, []]]);
  for (let c = 1; c <= 16; c++) for (let s = 1; s <= 4; s++) sitesByCompany.get(c <= 12 ? 1 : 2)!.push(c * 10 + s);
  const staffByCompany = new Map<number, number[]>([[1, []], [2, []]]);
  for (let id = 1; id <= STAFF_COMPANY_1 + STAFF_COMPANY_2; id++) staffByCompany.get(id <= STAFF_COMPANY_1 ? 1 : 2)!.push(id);
  return { sitesByCompany, staffByCompany };
}

/** Adds timesheets after the small file's, spread over the same sites, staff and dates. */
function fillTimesheetsLarge(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = OFF');
  const { sitesByCompany, staffByCompany } = organisation();
  db.transaction(() => insertTimesheets(db, prng(7), TIMESHEETS + 1, LARGE_TIMESHEETS, sitesByCompany, staffByCompany))();
  db.close();
}

function fillLarge(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = OFF');
  const rand = prng(99);
  db.transaction(() => insertLicenses(db, rand, SMALL_LICENSES + 1, LARGE_LICENSES, false))();
  db.close();
}

/** Returns the cached files, generating them first when missing (or when `regenerate`). */
export async function ensureDataset(options: { regenerate?: boolean; log?: (line: string) => void } = {}): Promise<Dataset> {
  const log = options.log ?? (() => {});
  const dir = join(tmpdir(), `shiftgate-bench-${cacheKey()}`);
  const small = join(dir, 'licenses-10k.sqlite');
  const large = join(dir, 'licenses-1m.sqlite');
  const timesheetsLarge = join(dir, 'timesheets-1m.sqlite');
  const marker = join(dir, 'complete');
  const timesheetsMarker = join(dir, 'complete-timesheets-1m');
  const info = {
    small,
    large,
    timesheetsLarge,
    licensesSmall: SMALL_LICENSES,
    licensesLarge: LARGE_LICENSES,
    timesheets: TIMESHEETS,
    timesheetsLargeCount: LARGE_TIMESHEETS,
  };
  if (!options.regenerate && existsSync(marker) && existsSync(timesheetsMarker)) {
    log(`data set: cached in ${dir}`);
    return { ...info, generatedNow: false, generationSeconds: 0 };
  }
  const started = performance.now();
  if (options.regenerate || !existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await createSchema(small);
    // The gateway opens files in WAL mode; generation writes in rollback mode, then hands over.
    for (const suffix of ['-wal', '-shm']) rmSync(small + suffix, { force: true });
    fillBase(small);
    copyFileSync(small, large);
    fillLarge(large);
    writeFileSync(marker, new Date().toISOString());
  }
  log('data set: adding timesheets up to 1,000,000 in a copy of the small file…');
  copyFileSync(small, timesheetsLarge);
  fillTimesheetsLarge(timesheetsLarge);
  writeFileSync(timesheetsMarker, new Date().toISOString());
  const generationSeconds = (performance.now() - started) / 1000;
  log(`data set: generated in ${generationSeconds.toFixed(1)} s (${dir})`);
  return { ...info, generatedNow: true, generationSeconds };
}
