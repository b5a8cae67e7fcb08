import Database from 'better-sqlite3';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import {
  authenticate,
  bool,
  HttpError,
  json,
  KEY_SQL,
  KeyCache,
  LICENSE_PAGE_SQL,
  licensePageBody,
  licensePageSize,
  LICENSES_PATH,
  rawServer,
  STAFF_EXISTS_SQL,
  TIMESHEET_PATH,
  type Principal,
  type Row,
} from './raw-common.js';

/**
 * The limit: the two reads served by a bare node:http handler over prepared better-sqlite3
 * statements, with the same credential checks as the gateway and byte-identical response
 * bodies (raw-common.ts).
 */

const db = new Database(argument('db'));
db.pragma('journal_mode = WAL');
let statements = 0;
const prepared = {
  key: db.prepare(KEY_SQL),
  timesheet: db.prepare(`
    SELECT t.*, si.name AS site_name, c.id AS customer_id, c.name AS customer_name, c.company_id,
           st.staff_id, st.first_name, st.last_name, st.employee_reference_number, st.email, st.mobile,
           st.subcontractor_company
    FROM timesheets t
    JOIN sites si ON si.id = t.site_id
    JOIN customers c ON c.id = si.customer_id
    JOIN staff st ON st.id = t.employee_id
    WHERE t.timesheet_id = ?`),
  licenses: db.prepare(LICENSE_PAGE_SQL),
  staffExists: db.prepare(STAFF_EXISTS_SQL),
};
function get(statement: Database.Statement, ...params: unknown[]): Row | undefined {
  statements++;
  return statement.get(...params) as Row | undefined;
}
function all(statement: Database.Statement, ...params: unknown[]): Row[] {
  statements++;
  return statement.all(...params) as Row[];
}


function timesheet(principal: Principal, id: number): string {
  if (principal.keyType !== 'timesheet') throw new HttpError(403, 'This API key type may not access this resource');
  const r = get(prepared.timesheet, id);
  const inScope =
    r !== undefined &&
    r.company_id === principal.companyId &&
    (principal.customerIds.length === 0 || principal.customerIds.includes(r.customer_id)) &&
    (principal.siteIds.length === 0 || principal.siteIds.includes(r.site_id));
  if (!r || !inScope) throw new HttpError(404, `Timesheet ${id} not found`);
  const name = [r.first_name, r.last_name].filter((part) => typeof part === 'string' && part !== '').join(' ');
  const data = {
    timesheetId: r.timesheet_id,
    customerName: r.customer_name,
    customerApiId: r.customer_id,
    siteName: r.site_name,
    siteApiId: r.site_id,
    staffId: r.staff_id,
    staffName: name === '' ? null : name,
    employeeId: String(r.employee_id),
    employeeReferenceNumber: r.employee_reference_number,
    email: r.email,
    mobile: r.mobile,
    subcontractorCompany: r.subcontractor_company,
    entryType: r.entry_type,
    position: r.position,
    service: r.service,
    paygroup: r.paygroup,
    scheduledStartTime: r.scheduled_start_time,
    scheduledEndTime: r.scheduled_end_time,
    timeclockStartTime: r.timeclock_start_time,
    clockInCoordinates: json(r.clock_in_coordinates),
    timeclockBreakStartTime: r.timeclock_break_start_time,
    timeclockBreakEndTime: r.timeclock_break_end_time,
    timeclockEndTime: r.timeclock_end_time,
    clockOutCoordinates: json(r.clock_out_coordinates),
    staffSubmittedTimesheetTimes: json(r.staff_submitted_timesheet_times),
    payStartTime: r.pay_start_time,
    payEndTime: r.pay_end_time,
    payBreakTime: r.pay_break_time,
    invoiceStartTime: r.invoice_start_time,
    invoiceEndTime: r.invoice_end_time,
    invoiceBreakTime: r.invoice_break_time,
    notes: json(r.notes),
    allowances: json(r.allowances),
    status: r.status,
    approvedBy: r.approved_by,
    approvedDateTime: r.approved_date_time,
    customerApprovalStatus: r.customer_approval_status,
    customerApprover: r.customer_approver,
    customerApprovedDateTime: r.customer_approved_date_time,
    lock: bool(r.lock),
    scheduleNotes: json(r.schedule_notes),
  };
  return JSON.stringify({ status: { code: 200, errorMessage: '' }, data, count: 1, message: 'OK', errors: [] });
}

const keys = new KeyCache((keyId) => get(prepared.key, keyId));

function licensePage(principal: Principal, employeeId: number, search: URLSearchParams): string {
  const size = licensePageSize(principal, search);
  const rows = all(prepared.licenses, employeeId, principal.companyId, size + 1);
  if (rows.length === 0 && !get(prepared.staffExists, employeeId, principal.companyId)) {
    throw new HttpError(404, `Staff ${employeeId} not found`);
  }
  return licensePageBody(rows, employeeId, size);
}

const server = rawServer(async (req, path, search) => {
  let m = TIMESHEET_PATH.exec(path);
  if (m && req.method === 'GET') return timesheet(await authenticate(req, keys), Number(m[1]));
  m = LICENSES_PATH.exec(path);
  if (m && req.method === 'GET') return licensePage(await authenticate(req, keys), Number(m[1]), search);
  throw new HttpError(404, `No route for ${req.method} ${path}`);
});

serveAsChild(server, () => statements, async () => {
  db.close();
}).catch(failChild);
