import type { Db, Queryable } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import { alignById, fromJson, groupById, toBool, toInt, toText } from '../shared/db/columns.js';
import { applyKeysetPage, withinTimesheetScope } from './tenant-scope.js';
import { rowsOf, selectRows } from '../shared/db/statements.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { chunk, ID_CHUNK } from '../shared/chunk.js';

function staffName(first: unknown, last: unknown): string | null {
  const name = [first, last].filter((part) => typeof part === 'string' && part !== '').join(' ');
  return name === '' ? null : name;
}

function toTimesheet(row: Record<string, unknown>) {
  return {
    timesheetId: Number(row.timesheet_id),
    customerName: toText(row.customer_name),
    customerApiId: Number(row.customer_id),
    siteName: toText(row.site_name),
    siteApiId: Number(row.site_id),
    staffId: toText(row.staff_id),
    staffName: staffName(row.first_name, row.last_name),
    employeeId: String(row.employee_id),
    employeeReferenceNumber: toText(row.employee_reference_number),
    email: toText(row.email),
    mobile: toText(row.mobile),
    subcontractorCompany: toText(row.subcontractor_company),
    entryType: toText(row.entry_type),
    position: toText(row.position),
    service: toText(row.service),
    paygroup: toText(row.paygroup),
    scheduledStartTime: toText(row.scheduled_start_time),
    scheduledEndTime: toText(row.scheduled_end_time),
    timeclockStartTime: toText(row.timeclock_start_time),
    clockInCoordinates: fromJson(row.clock_in_coordinates),
    timeclockBreakStartTime: toText(row.timeclock_break_start_time),
    timeclockBreakEndTime: toText(row.timeclock_break_end_time),
    timeclockEndTime: toText(row.timeclock_end_time),
    clockOutCoordinates: fromJson(row.clock_out_coordinates),
    staffSubmittedTimesheetTimes: fromJson(row.staff_submitted_timesheet_times),
    payStartTime: toText(row.pay_start_time),
    payEndTime: toText(row.pay_end_time),
    payBreakTime: toInt(row.pay_break_time),
    invoiceStartTime: toText(row.invoice_start_time),
    invoiceEndTime: toText(row.invoice_end_time),
    invoiceBreakTime: toInt(row.invoice_break_time),
    notes: fromJson(row.notes),
    allowances: fromJson(row.allowances),
    status: toText(row.status),
    approvedBy: toText(row.approved_by),
    approvedDateTime: toText(row.approved_date_time),
    customerApprovalStatus: toText(row.customer_approval_status),
    customerApprover: toText(row.customer_approver),
    customerApprovedDateTime: toText(row.customer_approved_date_time),
    lock: toBool(row.lock),
    scheduleNotes: fromJson(row.schedule_notes),
  };
}

/** A timesheet entry with everything the contract derives from its site, customer and staff. */
export type TimesheetRecord = ReturnType<typeof toTimesheet>;

// Site, customer and staff travel with every timesheet read, joined in the same statement, as
// CROSS JOINs with their conditions in WHERE: SQLite keeps that order, so a list page walks
// timesheet_id (or a timesheet-column filter's index) and stops after pageSize + 1 rows, instead of
// sorting every timesheet of the key's customers. PostgreSQL plans the same text freely
// (docs/rest-api.md, List filters and their indexes).
function selectTimesheets(db: Db, principal: Principal) {
  const query = db('timesheets as t')
    .crossJoin(db.raw('?? as ??', ['sites', 'si']))
    .crossJoin(db.raw('?? as ??', ['customers', 'c']))
    .crossJoin(db.raw('?? as ??', ['staff', 'st']))
    .where('si.id', db.ref('t.site_id'))
    .where('c.id', db.ref('si.customer_id'))
    .where('st.id', db.ref('t.employee_id'))
    .select('t.*', 'si.name as site_name', 'c.id as customer_id', 'c.name as customer_name', 'c.company_id', 'st.staff_id')
    .select('st.first_name', 'st.last_name', 'st.employee_reference_number', 'st.email', 'st.mobile', 'st.subcontractor_company');
  return withinTimesheetScope(query, { company: 'c.company_id', customer: 'c.id', site: 'si.id' }, principal);
}

/**
 * loadTimesheets' statement for a key, a database and a number of ids, built by knex once
 * (building it costs more CPU than running it): its text, and its bindings up to the ids, which
 * come last.
 */
const loadStatements = new WeakMap<Principal, Map<number, { db: Db; sql: string; scope: readonly unknown[] }>>();

/** Loads timesheets by id with site, customer and staff joined in one statement, scoped to the key. */
export async function loadTimesheets(db: Db, principal: Principal, ids: readonly number[]): Promise<(TimesheetRecord | null)[]> {
  let statements = loadStatements.get(principal);
  if (!statements) loadStatements.set(principal, (statements = new Map()));
  let statement = statements.get(ids.length);
  if (statement?.db !== db) {
    const { sql, bindings } = selectTimesheets(db, principal).whereIn('t.timesheet_id', ids as number[]).toSQL();
    statements.set(ids.length, (statement = { db, sql, scope: bindings.slice(0, bindings.length - ids.length) }));
  }
  const rows = await rowsOf(db, statement.sql, [...statement.scope, ...ids], true);
  return alignById(ids, rows.map(toTimesheet), (t) => t.timesheetId);
}

/** The list filters, all optional; times are UTC ISO strings as stored. */
export interface TimesheetFilter {
  siteId?: number;
  customerId?: number;
  employeeId?: number;
  status?: string;
  /** Scheduled start at or after. */
  from?: string;
  /** Scheduled start before. */
  to?: string;
  /** Written (created or changed) at or after; compared as UTC ISO text at millisecond precision. */
  modifiedSince?: string;
}

/** One keyset page of the key's timesheets, ordered by timesheetId (size + 1 rows at most). */
export async function timesheetPage(db: Db, principal: Principal, filter: TimesheetFilter, page: KeysetPage): Promise<TimesheetRecord[]> {
  return (await selectRows(db, timesheetPageQuery(db, principal, filter, page))).map(toTimesheet);
}

/** The statement timesheetPage runs (exported so a test can read its plan). */
export function timesheetPageQuery(db: Db, principal: Principal, filter: TimesheetFilter, page: KeysetPage) {
  return applyKeysetPage(filteredTimesheets(db, principal, filter), 't.timesheet_id', page);
}

function filteredTimesheets(db: Db, principal: Principal, filter: TimesheetFilter) {
  const query = selectTimesheets(db, principal);
  if (filter.siteId !== undefined) query.where('t.site_id', filter.siteId);
  if (filter.customerId !== undefined) query.where('si.customer_id', filter.customerId);
  if (filter.employeeId !== undefined) query.where('t.employee_id', filter.employeeId);
  if (filter.status !== undefined) query.where('t.status', filter.status);
  if (filter.from !== undefined) query.where('t.scheduled_start_time', '>=', filter.from);
  if (filter.to !== undefined) query.where('t.scheduled_start_time', '<', filter.to);
  if (filter.modifiedSince !== undefined) query.where('t.modified_at', '>=', filter.modifiedSince);
  return query;
}

/**
 * The first page (size + 1 rows at most) of each site's timesheets, by timesheetId, grouped like
 * the ids, in one statement: the same scope and filters as timesheetPage, the site one more filter.
 */
export async function firstTimesheetsOfSites(
  db: Db,
  principal: Principal,
  siteIds: readonly number[],
  filter: Omit<TimesheetFilter, 'siteId'>,
  size: number,
): Promise<TimesheetRecord[][]> {
  const ranked = filteredTimesheets(db, principal, filter)
    .whereIn('t.site_id', siteIds as number[])
    .select(db.raw('row_number() over (partition by t.site_id order by t.timesheet_id) as rn'));
  const query = db.from(ranked.as('ranked')).select('*').where('rn', '<=', size + 1).orderBy('timesheet_id');
  return groupById(siteIds, (await selectRows(db, query)).map(toTimesheet), (timesheet) => timesheet.siteApiId);
}

/** What a write changed that timesheet entries show: the entries themselves, or their site, customer or staff member. */
export interface ShownChanges {
  timesheetIds: readonly number[];
  siteIds: readonly number[];
  customerIds: readonly number[];
  employeeIds: readonly number[];
}

/**
 * Stamps the entries a write changed with its modification time (`at`, UTC ISO text), last in its
 * transaction, so a reader who noted a time before the commit finds them (docs/rest-api.md, Incremental sync).
 */
export async function markTimesheetsModified(trx: Queryable, changes: ShownChanges, at: string): Promise<void> {
  const stamp = { modified_at: at };
  for (const part of chunk(changes.timesheetIds, ID_CHUNK)) await trx('timesheets').whereIn('timesheet_id', part).update(stamp);
  for (const part of chunk(changes.siteIds, ID_CHUNK)) await trx('timesheets').whereIn('site_id', part).update(stamp);
  for (const part of chunk(changes.employeeIds, ID_CHUNK)) await trx('timesheets').whereIn('employee_id', part).update(stamp);
  for (const part of chunk(changes.customerIds, ID_CHUNK)) {
    await trx('timesheets').whereIn('site_id', trx('sites').select('id').whereIn('customer_id', part)).update(stamp);
  }
}
