import { createTestDatabase } from '../support/backend.js';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase, type Db } from '../../src/shared/db/knex.js';

export interface TempDatabase {
  db: Db;
  dir: string;
  url: string;
  close(): Promise<void>;
}

/** A migrated database of its own (SQLite file or PostgreSQL schema), so tests never share state. */
export async function tempDatabase(): Promise<TempDatabase> {
  const database = await createTestDatabase();
  const db = openDatabase(loadConfig(database.env));
  await migrateLatest(db);
  return {
    db,
    dir: database.dir,
    url: database.url,
    async close() {
      await db.destroy();
      await database.close();
    },
  };
}

const TABLES: Record<string, string> = {
  companies: 'id',
  customers: 'id',
  sites: 'id',
  staff: 'id',
  licenses: 'security_license_id',
  timesheets: 'timesheet_id',
  subscribers: 'id',
  event_filters: 'id',
  subscriptions: 'id',
  api_keys: 'id',
};

/** Every row of every table, in key order: equal snapshots mean nothing was written. */
export async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(TABLES)) out[table] = await db(table).orderBy(key);
  return out;
}

export const SECRET_A = 'whsec_' + Buffer.alloc(32, 7).toString('base64');

/** A file touching every section and every timesheet/license field. */
export function fullFile() {
  return {
    companies: [
      { id: 1, name: 'Acme Security' },
      { id: 2, name: 'Other Guard Co' },
    ],
    customers: [
      { id: 10, companyId: 1, name: 'Harbour Mall' },
      { id: 20, companyId: 2, name: 'Rival Plaza' },
    ],
    sites: [
      { id: 100, customerId: 10, name: 'North Gate' },
      { id: 200, customerId: 20, name: 'Lobby' },
    ],
    staff: [
      {
        id: 1001,
        companyId: 1,
        staffId: 'EMP-1001',
        firstName: 'Alex',
        lastName: 'Nguyen',
        employeeReferenceNumber: 'REF-1',
        email: 'alex@example.com',
        mobile: '+61400000001',
        subcontractorCompany: null,
      },
      { id: 2001, companyId: 2, firstName: 'Jo' },
    ],
    licenses: [
      {
        securityLicenseId: 50001,
        employeeId: 1001,
        state: 'NSW',
        licenseNumber: 'NSW-0001',
        status: 'Active',
        expiryDate: '2027-06-30',
        reminder: 30,
        critical: true,
        attachmentLink: 'https://files.example.com/50001.pdf',
        licenceSector: 'Security',
        isInvalidLicense: false,
      },
      { securityLicenseId: 50002, employeeId: 2001, expiryDate: '2027-01-01T10:00:00+10:00' },
    ],
    timesheets: [
      {
        timesheetId: 9001,
        siteId: 100,
        employeeId: 1001,
        entryType: 'Shift',
        position: 'Guard',
        service: 'Static',
        paygroup: 'Weekday',
        scheduledStartTime: '2026-01-31T18:00:00+10:00',
        scheduledEndTime: '2026-02-01T02:00:00+10:00',
        timeclockStartTime: '2026-01-31T07:58:00Z',
        timeclockBreakStartTime: '2026-01-31T12:00:00Z',
        timeclockBreakEndTime: '2026-01-31T12:30:00Z',
        timeclockEndTime: '2026-01-31T16:01:00.5Z',
        payStartTime: '2026-01-31T08:00:00Z',
        payEndTime: '2026-01-31T16:00:00Z',
        invoiceStartTime: '2026-01-31T08:00:00Z',
        invoiceEndTime: '2026-01-31T16:00:00Z',
        clockInCoordinates: { latitude: -33.86, longitude: 151.2 },
        clockOutCoordinates: { latitude: -33.87, longitude: 151.21 },
        staffSubmittedTimesheetTimes: [{ start: '08:00', end: '16:00' }],
        payBreakTime: 30,
        invoiceBreakTime: 0,
        notes: [{ text: 'Quiet night' }],
        allowances: [{ code: 'NIGHT', amount: 12.5 }],
        status: 'Pending',
        approvedBy: null,
        approvedDateTime: null,
        customerApprovalStatus: 'Pending',
        customerApprover: null,
        customerApprovedDateTime: null,
        lock: false,
        scheduleNotes: { brief: 'Check the loading dock' },
      },
      { timesheetId: 9002, siteId: 200, employeeId: 2001, status: 'APPROVED' },
    ],
    subscribers: [
      {
        id: 301,
        companyId: 1,
        name: 'Acme payroll',
        signingSecret: SECRET_A,
        eventFilters: [
          { id: 3011, event: 'timesheet', eventType: 'approved' },
          { id: 3012, event: 'license', eventType: 'expiring' },
        ],
      },
      { id: 401, companyId: 2, name: 'Other payroll', eventFilters: [] },
    ],
  };
}
