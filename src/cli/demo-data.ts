import { isPostgres, type Db } from '../shared/db/knex.js';
import type { KeyType } from '../shared/principal.js';
import { importData } from '../import/import-data.js';
import { createApiKey, findApiKeyByPlaintext } from '../auth/api-keys.js';
import { waitTransactionLock } from '../repositories/advisory-locks.js';
import { isDatabaseEmpty } from '../repositories/organisation.js';
import { emitImportEvents } from '../import/events.js';

/**
 * Well-known demo API keys, created only when `serve --demo` loads the demo data set into an
 * empty database. They are public by design (printed at start-up, listed in the README):
 * revoke them with `shiftgate keys revoke` on anything that is not a demo.
 */
export const DEMO_API_KEYS: Record<KeyType, string> = {
  developer: 'sgk_demo_developer_3f6c1a9e0b7d4c21a8e5f0d2b9c4e7a1',
  timesheet: 'sgk_demo_timesheet_8b2e5d7a1c9f4e30b6d8a2c5f1e9b7d3',
};

const FIRST_NAMES = ['Alex', 'Sam', 'Priya', 'Mateo', 'Grace', 'Tomasz', 'Aisha', 'Liam'];
const LAST_NAMES = ['Nguyen', 'Okafor', 'Sharma', 'Garcia', 'Chen', 'Nowak', 'Haddad', 'Walsh'];
const STATES = ['NSW', 'VIC', 'QLD'];
const DEMO_STAFF = 26;
/** Customers as [id, companyId, name]; 12–15 have the five SITE_NAMES each (ids 120–124, …). */
const CUSTOMERS: readonly (readonly [number, number, string])[] = [
  [10, 1, 'Harbour Mall'],
  [11, 1, 'City Arena'],
  [12, 1, 'Northshore Hospital'],
  [13, 1, 'Westgate Logistics Depot'],
  [14, 1, 'Riverside University'],
  [15, 1, 'Eastern Markets'],
  [20, 2, 'Bayside Plaza'],
];
const SITE_NAMES = ['Main Entrance', 'Loading Dock', 'Car Park', 'Control Room', 'Perimeter'];
const SITES_OF_COMPANY: Record<number, number[]> = { 1: [100, 101, 110], 2: [200] };

function iso(day: number, hour: number): string {
  return new Date(Date.UTC(2026, 10, day, hour, 0, 0)).toISOString();
}

/** A night shift from `day` 21:00 to 05:00 the next day; the first night's is approved and locked. */
function shift(timesheetId: number, employeeId: number, siteId: number, day: number) {
  const [start, end, pause] = [iso(day, 21), iso(day + 1, 5), iso(day + 1, 1)];
  const approved = day === 2;
  const coordinates = { latitude: -33.8688, longitude: 151.2093 };
  return {
    timesheetId, siteId, employeeId,
    entryType: 'Shift', position: 'Security Officer', service: 'Static guarding', paygroup: 'Weekly',
    scheduledStartTime: start, scheduledEndTime: end,
    timeclockStartTime: start, timeclockBreakStartTime: pause, timeclockBreakEndTime: pause, timeclockEndTime: end,
    payStartTime: start, payEndTime: end, invoiceStartTime: start, invoiceEndTime: end,
    clockInCoordinates: coordinates, clockOutCoordinates: coordinates, staffSubmittedTimesheetTimes: [],
    payBreakTime: 30, invoiceBreakTime: 30,
    notes: [{ note: 'Patrol completed, no incidents.' }],
    allowances: day === 3 ? [{ name: 'Night shift', amount: 25 }] : [],
    status: approved ? 'Approved' : 'Pending',
    approvedBy: approved ? 'Roster Manager' : null,
    approvedDateTime: approved ? iso(day + 1, 9) : null,
    customerApprovalStatus: approved ? 'Approved' : 'Pending',
    customerApprover: approved ? 'Site Supervisor' : null,
    customerApprovedDateTime: approved ? iso(day + 1, 10) : null,
    lock: approved,
    scheduleNotes: { instructions: 'Check all exits every hour.' },
  };
}

/** A small, readable data set in the import format: two companies, so scoping can be tried. */
export function demoDataSet() {
  // 24 employees in company 1 and 2 in company 2, so the staff and timesheet lists page.
  const staff = Array.from({ length: DEMO_STAFF }, (_, i) => {
    const firstName = FIRST_NAMES[i % FIRST_NAMES.length] ?? 'Alex';
    const lastName = LAST_NAMES[(i + Math.floor(i / FIRST_NAMES.length)) % LAST_NAMES.length] ?? 'Smith';
    return {
      id: 1001 + i,
      companyId: i < DEMO_STAFF - 2 ? 1 : 2,
      staffId: `EMP-${1001 + i}`,
      firstName,
      lastName,
      employeeReferenceNumber: `REF-${5000 + i}`,
      email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}${i < FIRST_NAMES.length ? '' : String(i)}@example.com`,
      mobile: `+6140000${String(1000 + i)}`,
      subcontractorCompany: i % 8 === 3 ? 'Nightwatch Contractors' : null,
    };
  });
  // Staff 1001 holds many licenses so the cursor pages are worth trying.
  const licenses = [];
  let licenseId = 70001;
  for (const person of staff) {
    const count = person.id === 1001 ? 45 : 2;
    for (let n = 0; n < count; n++, licenseId++) {
      const state = STATES[n % STATES.length] ?? 'NSW';
      licenses.push({
        securityLicenseId: licenseId,
        employeeId: person.id,
        state,
        licenseNumber: `${state}-${String(licenseId).slice(-5)}`,
        status: n % 7 === 6 ? 'Expired' : 'Active',
        expiryDate: new Date(Date.UTC(2027, n % 12, 1 + (n % 27))).toISOString(),
        reminder: 30,
        critical: n % 5 === 0,
        attachmentLink: `https://files.example.com/licenses/${licenseId}.pdf`,
        licenceSector: n % 2 === 0 ? 'Security' : 'Crowd control',
        isInvalidLicense: false,
      });
    }
  }
  let timesheetId = 9001;
  const timesheets = staff.flatMap((person) =>
    [2, 3, 4].map((day) => {
      const sites = SITES_OF_COMPANY[person.companyId] ?? [];
      return shift(timesheetId++, person.id, sites[(person.id + day) % sites.length] ?? 100, day);
    }),
  );
  const filter = (id: number, event: string, eventType: string) => ({ id, event, eventType });
  return {
    companies: [
      { id: 1, name: 'Harbourside Security' },
      { id: 2, name: 'Southern Cross Guarding' },
    ],
    customers: CUSTOMERS.map(([id, companyId, name]) => ({ id, companyId, name })),
    sites: [
      { id: 100, customerId: 10, name: 'Harbour Mall — North Gate' },
      { id: 101, customerId: 10, name: 'Harbour Mall — Car Park' },
      { id: 110, customerId: 11, name: 'City Arena — Main Entrance' },
      { id: 200, customerId: 20, name: 'Bayside Plaza — Lobby' },
      // Five sites each, so company 1's site list runs past one default page of 20.
      ...CUSTOMERS.filter(([id]) => id >= 12 && id <= 15).flatMap(([customerId, , name]) =>
        SITE_NAMES.map((site, i) => ({ id: customerId * 10 + i, customerId, name: `${name} — ${site}` })),
      ),
    ],
    staff,
    licenses,
    timesheets,
    subscribers: [
      { id: 1, companyId: 1, name: 'Harbourside payroll integration', eventFilters: [filter(11, 'timesheet', 'approved')] },
      { id: 2, companyId: 1, name: 'Harbourside compliance dashboard', eventFilters: [filter(21, 'license', 'expiring'), filter(22, 'license', 'expired')] },
      { id: 3, companyId: 2, name: 'Southern Cross payroll', eventFilters: [filter(31, 'timesheet', 'approved')] },
    ],
  };
}

/** Loads the demo data set and the demo keys (company 1) into an empty database. */
export async function loadDemoData(db: Db): Promise<void> {
  await importData(db, demoDataSet(), { onChanges: emitImportEvents });
  for (const keyType of ['developer', 'timesheet'] as const) {
    await createApiKey(db, { keyType, companyId: 1, name: `demo ${keyType} key`, apiKey: DEMO_API_KEYS[keyType] });
  }
}

/**
 * Loads the demo data when the database is empty; true when it did. On PostgreSQL several
 * instances may start on one empty database at once: the check and the load run in one
 * transaction behind an advisory lock, so exactly one of them loads and the rest see data.
 */
export async function loadDemoDataIfEmpty(db: Db): Promise<boolean> {
  const loadIfEmpty = async (into: Db) => {
    if (!(await isDatabaseEmpty(into))) return false;
    await loadDemoData(into);
    return true;
  };
  if (!isPostgres(db)) return loadIfEmpty(db);
  return db.transaction(async (trx) => {
    await waitTransactionLock(trx, 'demo-data');
    return loadIfEmpty(trx);
  });
}

/** The demo keys that still work (not revoked): printed at start-up, and refused in production. */
export async function activeDemoKeys(db: Db) {
  const active = [];
  for (const keyType of ['developer', 'timesheet'] as const) {
    const record = await findApiKeyByPlaintext(db, DEMO_API_KEYS[keyType]);
    if (record && record.revokedAt === null) active.push({ id: record.id, keyType, apiKey: DEMO_API_KEYS[keyType] });
  }
  return active;
}
