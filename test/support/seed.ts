import type { Db } from '../../src/shared/db/knex.js';

/**
 * Two tenants for tests: company 1 (customers 10, 11; sites 100, 101, 110) and company 2
 * (customer 20; site 200). Staff 1001 has 45 licenses; 2001 belongs to company 2.
 */
const CUSTOMERS = [
  { id: 10, company_id: 1, name: 'Harbour Mall' },
  { id: 11, company_id: 1, name: 'City Arena' },
  { id: 20, company_id: 2, name: 'Rival Plaza' },
];
const SITES = [
  { id: 100, customer_id: 10, name: 'Harbour Mall North Gate' },
  { id: 101, customer_id: 10, name: 'Harbour Mall Car Park' },
  { id: 110, customer_id: 11, name: 'City Arena Main' },
  { id: 200, customer_id: 20, name: 'Rival Plaza Lobby' },
];
const STAFF = [staffRow(1001, 1, 'Alex', 'Nguyen'), staffRow(1002, 1, 'Sam', 'Okafor'), staffRow(2001, 2, 'Jo', 'Rivera')];
const LICENSES = [
  ...Array.from({ length: 45 }, (_, i) => licenseRow(50001 + i, 1001, `NSW-${String(i + 1).padStart(4, '0')}`)),
  licenseRow(60001, 1002, 'VIC-0001'),
  licenseRow(70001, 2001, 'QLD-0001'),
];
const TIMESHEETS = [timesheetRow(9001, 100, 1001), timesheetRow(9002, 101, 1001), timesheetRow(9003, 110, 1002), timesheetRow(9004, 200, 2001)];
const SUBSCRIBERS = [
  { id: 301, company_id: 1, name: 'Acme payroll', signing_secret: 'whsec_' + Buffer.from('a'.repeat(32)).toString('base64') },
  { id: 302, company_id: 1, name: 'Acme rostering', signing_secret: 'whsec_' + Buffer.from('b'.repeat(32)).toString('base64') },
  { id: 303, company_id: 1, name: 'Acme unfiltered', signing_secret: 'whsec_' + Buffer.from('d'.repeat(32)).toString('base64') },
  { id: 401, company_id: 2, name: 'Other payroll', signing_secret: 'whsec_' + Buffer.from('c'.repeat(32)).toString('base64') },
];

const companyOfCustomer = new Map(CUSTOMERS.map((c) => [c.id, c.company_id]));
const companyOfSite = new Map(SITES.map((s) => [s.id, companyOfCustomer.get(s.customer_id)!]));
const companyOfStaff = new Map(STAFF.map((s) => [s.id, s.company_id]));

/** The seeded records of each kind by id, with the company each belongs to (read from the rows above). */
export const SEEDED = {
  customer: new Map(CUSTOMERS.map((c) => [c.id, c.company_id])),
  site: companyOfSite,
  staff: companyOfStaff,
  license: new Map(LICENSES.map((l) => [l.security_license_id, companyOfStaff.get(l.employee_id)!])),
  timesheet: new Map(TIMESHEETS.map((t) => [t.timesheet_id, companyOfSite.get(t.site_id)!])),
  subscriber: new Map(SUBSCRIBERS.map((s) => [s.id, s.company_id])),
} satisfies Record<string, ReadonlyMap<number, number>>;

export type SeededKind = keyof typeof SEEDED;

/** The ids of one kind's seeded records of a company, ascending. */
export const seededOf = (kind: SeededKind, companyId: number): number[] =>
  [...SEEDED[kind]].filter(([, company]) => company === companyId).map(([id]) => id).sort((a, b) => a - b);

export async function seedTenants(db: Db): Promise<void> {
  await db('companies').insert([
    { id: 1, name: 'Acme Security' },
    { id: 2, name: 'Other Guard Co' },
  ]);
  await db('customers').insert(CUSTOMERS);
  await db('sites').insert(SITES);
  await db('staff').insert(STAFF);
  await db.batchInsert('licenses', LICENSES, 100);
  await db('timesheets').insert(TIMESHEETS);
  await db('subscribers').insert(SUBSCRIBERS);
  await db('event_filters').insert([
    { id: 3011, subscriber_id: 301, event: 'timesheet', event_type: 'approved' },
    { id: 3021, subscriber_id: 302, event: 'timesheet', event_type: 'created' },
    { id: 3022, subscriber_id: 302, event: 'license', event_type: 'expiring' },
    { id: 4011, subscriber_id: 401, event: 'timesheet', event_type: 'approved' },
  ]);
}

function staffRow(id: number, companyId: number, firstName: string, lastName: string) {
  return {
    id,
    company_id: companyId,
    staff_id: `S-${id}`,
    first_name: firstName,
    last_name: lastName,
    employee_reference_number: `REF-${id}`,
    email: `${firstName.toLowerCase()}@example.com`,
    mobile: '+61400000000',
    subcontractor_company: null,
  };
}

function licenseRow(id: number, employeeId: number, licenseNumber: string) {
  return {
    security_license_id: id,
    employee_id: employeeId,
    state: 'NSW',
    license_number: licenseNumber,
    status: 'Active',
    expiry_date: '2027-06-30T00:00:00.000Z',
    reminder: 30,
    critical: id % 2 === 0,
    attachment_link: `https://files.example.com/licenses/${id}.pdf`,
    licence_sector: 'Security',
    is_invalid_license: false,
  };
}

function timesheetRow(id: number, siteId: number, employeeId: number) {
  return {
    timesheet_id: id,
    site_id: siteId,
    employee_id: employeeId,
    entry_type: 'Shift',
    position: 'Guard',
    service: 'Static guarding',
    paygroup: 'Weekly',
    scheduled_start_time: '2026-11-02T21:00:00.000Z',
    scheduled_end_time: '2026-11-03T05:00:00.000Z',
    timeclock_start_time: '2026-11-02T20:55:00.000Z',
    clock_in_coordinates: JSON.stringify({ latitude: -33.86, longitude: 151.21 }),
    timeclock_end_time: '2026-11-03T05:02:00.000Z',
    pay_start_time: '2026-11-02T21:00:00.000Z',
    pay_end_time: '2026-11-03T05:00:00.000Z',
    pay_break_time: 30,
    notes: JSON.stringify([{ text: 'All quiet' }]),
    allowances: JSON.stringify([]),
    status: 'Pending',
    lock: false,
  };
}
