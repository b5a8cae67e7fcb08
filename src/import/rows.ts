import { normaliseDateTime } from './date-time.js';
import type { Row } from './existing.js';

type Kind = 'int' | 'text' | 'bool' | 'json' | 'datetime';

/** How one entity of the file maps onto its table: [contract field, column, kind]. */
export interface TableSpec {
  table: string;
  idColumn: string;
  fields: readonly (readonly [string, string, Kind])[];
}

const ts = (field: string, column: string) => [field, column, 'datetime'] as const;
const tx = (field: string, column: string) => [field, column, 'text'] as const;

export const TABLES = {
  companies: { table: 'companies', idColumn: 'id', fields: [['id', 'id', 'int'], tx('name', 'name')] },
  customers: {
    table: 'customers',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['companyId', 'company_id', 'int'], tx('name', 'name')],
  },
  sites: {
    table: 'sites',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['customerId', 'customer_id', 'int'], tx('name', 'name')],
  },
  staff: {
    table: 'staff',
    idColumn: 'id',
    fields: [
      ['id', 'id', 'int'],
      ['companyId', 'company_id', 'int'],
      tx('staffId', 'staff_id'),
      tx('firstName', 'first_name'),
      tx('lastName', 'last_name'),
      tx('employeeReferenceNumber', 'employee_reference_number'),
      tx('email', 'email'),
      tx('mobile', 'mobile'),
      tx('subcontractorCompany', 'subcontractor_company'),
    ],
  },
  licenses: {
    table: 'licenses',
    idColumn: 'security_license_id',
    fields: [
      ['securityLicenseId', 'security_license_id', 'int'],
      ['employeeId', 'employee_id', 'int'],
      tx('state', 'state'),
      tx('licenseNumber', 'license_number'),
      tx('status', 'status'),
      ts('expiryDate', 'expiry_date'),
      ['reminder', 'reminder', 'int'],
      ['critical', 'critical', 'bool'],
      tx('attachmentLink', 'attachment_link'),
      tx('licenceSector', 'licence_sector'),
      ['isInvalidLicense', 'is_invalid_license', 'bool'],
    ],
  },
  timesheets: {
    table: 'timesheets',
    idColumn: 'timesheet_id',
    fields: [
      ['timesheetId', 'timesheet_id', 'int'],
      ['siteId', 'site_id', 'int'],
      ['employeeId', 'employee_id', 'int'],
      tx('entryType', 'entry_type'),
      tx('position', 'position'),
      tx('service', 'service'),
      tx('paygroup', 'paygroup'),
      ts('scheduledStartTime', 'scheduled_start_time'),
      ts('scheduledEndTime', 'scheduled_end_time'),
      ts('timeclockStartTime', 'timeclock_start_time'),
      ts('timeclockBreakStartTime', 'timeclock_break_start_time'),
      ts('timeclockBreakEndTime', 'timeclock_break_end_time'),
      ts('timeclockEndTime', 'timeclock_end_time'),
      ts('payStartTime', 'pay_start_time'),
      ts('payEndTime', 'pay_end_time'),
      ts('invoiceStartTime', 'invoice_start_time'),
      ts('invoiceEndTime', 'invoice_end_time'),
      ['clockInCoordinates', 'clock_in_coordinates', 'json'],
      ['clockOutCoordinates', 'clock_out_coordinates', 'json'],
      ['staffSubmittedTimesheetTimes', 'staff_submitted_timesheet_times', 'json'],
      ['payBreakTime', 'pay_break_time', 'int'],
      ['invoiceBreakTime', 'invoice_break_time', 'int'],
      ['notes', 'notes', 'json'],
      ['allowances', 'allowances', 'json'],
      tx('status', 'status'),
      tx('approvedBy', 'approved_by'),
      ts('approvedDateTime', 'approved_date_time'),
      tx('customerApprovalStatus', 'customer_approval_status'),
      tx('customerApprover', 'customer_approver'),
      ts('customerApprovedDateTime', 'customer_approved_date_time'),
      ['lock', 'lock', 'bool'],
      ['scheduleNotes', 'schedule_notes', 'json'],
    ],
  },
  subscribers: {
    table: 'subscribers',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['companyId', 'company_id', 'int'], tx('name', 'name'), tx('signingSecret', 'signing_secret')],
  },
  eventFilters: {
    table: 'event_filters',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['subscriberId', 'subscriber_id', 'int'], tx('event', 'event'), tx('eventType', 'event_type')],
  },
} as const satisfies Record<string, TableSpec>;

export type Entity = keyof typeof TABLES;

/** Entities in the order they must be written (foreign keys point backwards). */
export const ENTITIES = Object.keys(TABLES) as Entity[];

/**
 * The row to store for a validated record. A field left out of the file is stored as null:
 * an import states the whole record, it does not patch it.
 */
export function toRow(spec: TableSpec, record: object): Row {
  const source = record as Record<string, unknown>;
  const row: Row = {};
  for (const [field, column, kind] of spec.fields) {
    const value = source[field] ?? null;
    row[column] = kind === 'json' && value !== null ? JSON.stringify(value) : value;
  }
  return row;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// Both sides go through the same reading, so backend quirks (SQLite's 0/1 booleans, PostgreSQL
// strings for big numbers, JSON key order, un-normalised date text) never count as a change.
function comparable(kind: Kind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'int':
      return Number(value);
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'datetime':
      return normaliseDateTime(String(value)) ?? String(value);
    case 'json':
      try {
        return stableJson(typeof value === 'string' ? JSON.parse(value) : value);
      } catch {
        return String(value);
      }
    case 'text':
      return String(value);
  }
}

export function sameRow(spec: TableSpec, next: Row, stored: Row): boolean {
  return spec.fields.every(([, column, kind]) => comparable(kind, next[column]) === comparable(kind, stored[column]));
}
