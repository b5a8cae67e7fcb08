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

function iso(day: number, hour: number): string {
  return new Date(Date.UTC(2026, 10, day, hour, 0, 0)).toISOString();
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
    for (let n = 0; n < count; n++) {
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
      licenseId++;
    }
  }
  const timesheets = [];
  const sitesOfCompany: Record<number, number[]> = { 1: [100, 101, 110], 2: [200] };
  let timesheetId = 9001;
  for (const person of staff) {
    const sites = sitesOfCompany[person.companyId] ?? [];
    for (let day = 2; day <= 4; day++) {
      const siteId = sites[(person.id + day) % sites.length] ?? 100;
      timesheets.push({
        timesheetId: timesheetId++,
        siteId,
        employeeId: person.id,
        entryType: 'Shift',
        position: 'Security Officer',
        service: 'Static guarding',
        paygroup: 'Weekly',
        scheduledStartTime: iso(day, 21),
        scheduledEndTime: iso(day + 1, 5),
        timeclockStartTime: iso(day, 21),
        timeclockBreakStartTime: iso(day + 1, 1),
        timeclockBreakEndTime: iso(day + 1, 1),
        timeclockEndTime: iso(day + 1, 5),
        payStartTime: iso(day, 21),
        payEndTime: iso(day + 1, 5),
        invoiceStartTime: iso(day, 21),
        invoiceEndTime: iso(day + 1, 5),
        clockInCoordinates: { latitude: -33.8688, longitude: 151.2093 },
        clockOutCoordinates: { latitude: -33.8688, longitude: 151.2093 },
        staffSubmittedTimesheetTimes: [],
        payBreakTime: 30,
        invoiceBreakTime: 30,
        notes: [{ note: 'Patrol completed, no incidents.' }],
        allowances: day === 3 ? [{ name: 'Night shift', amount: 25 }] : [],
        status: day === 2 ? 'Approved' : 'Pending',
        approvedBy: day === 2 ? 'Roster Manager' : null,
        approvedDateTime: day === 2 ? iso(day + 1, 9) : null,
        customerApprovalStatus: day === 2 ? 'Approved' : 'Pending',
        customerApprover: day === 2 ? 'Site Supervisor' : null,
        customerApprovedDateTime: day === 2 ? iso(day + 1, 10) : null,
        lock: day === 2,
        scheduleNotes: { instructions: 'Check all exits every hour.' },
      });
    }
  }
  return {
    companies: [
      { id: 1, name: 'Harbourside Security' },
      { id: 2, name: 'Southern Cross Guarding' },
    ],
    customers: [
      { id: 10, companyId: 1, name: 'Harbour Mall' },
      { id: 11, companyId: 1, name: 'City Arena' },
      ...MORE_CUSTOMERS.map(([id, name]) => ({ id, companyId: 1, name })),
      { id: 20, companyId: 2, name: 'Bayside Plaza' },
    ],
    sites: [
      { id: 100, customerId: 10, name: 'Harbour Mall — North Gate' },
      { id: 101, customerId: 10, name: 'Harbour Mall — Car Park' },
      { id: 110, customerId: 11, name: 'City Arena — Main Entrance' },
      { id: 200, customerId: 20, name: 'Bayside Plaza — Lobby' },
      // Five sites each, so company 1's site list runs past one default page of 20.
      ...MORE_CUSTOMERS.flatMap(([customerId, name]) =>
        SITE_NAMES.map((site, i) => ({ id: customerId * 10 + i, customerId, name: `${name} — ${site}` })),
      ),
    ],
    staff,
    licenses,
    timesheets,
    subscribers: [
      {
        id: 1,
        companyId: 1,
        name: 'Harbourside payroll integration',
        eventFilters: [{ id: 11, event: 'timesheet', eventType: 'approved' }],
      },
      {
        id: 2,
        companyId: 1,
        name: 'Harbourside compliance dashboard',
        eventFilters: [
          { id: 21, event: 'license', eventType: 'expiring' },
          { id: 22, event: 'license', eventType: 'expired' },
        ],
      },
      {
        id: 3,
        companyId: 2,
        name: 'Southern Cross payroll',
        eventFilters: [{ id: 31, event: 'timesheet', eventType: 'approved' }],
      },
    ],
  };
}

/** Further customers of company 1 (ids 12–15), each with the sites below (ids 120–124, …). */
const MORE_CUSTOMERS: readonly (readonly [number, string])[] = [
  [12, 'Northshore Hospital'],
  [13, 'Westgate Logistics Depot'],
  [14, 'Riverside University'],
  [15, 'Eastern Markets'],
];
const SITE_NAMES = ['Main Entrance', 'Loading Dock', 'Car Park', 'Control Room', 'Perimeter'];

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
  if (!isPostgres(db)) {
    if (!(await isDatabaseEmpty(db))) return false;
    await loadDemoData(db);
    return true;
  }
  return db.transaction(async (trx) => {
    await waitTransactionLock(trx, 'demo-data');
    if (!(await isDatabaseEmpty(trx))) return false;
    await loadDemoData(trx);
    return true;
  });
}

export interface ActiveDemoKey {
  id: number;
  keyType: KeyType;
  apiKey: string;
}

/** The demo keys that still work (not revoked): printed at start-up, and refused in production. */
export async function activeDemoKeys(db: Db): Promise<ActiveDemoKey[]> {
  const active: ActiveDemoKey[] = [];
  for (const keyType of ['developer', 'timesheet'] as const) {
    const record = await findApiKeyByPlaintext(db, DEMO_API_KEYS[keyType]);
    if (record && record.revokedAt === null) active.push({ id: record.id, keyType, apiKey: DEMO_API_KEYS[keyType] });
  }
  return active;
}
