import { normaliseDateTime } from './date-time.js';
import type { Row } from '../repositories/import-tables.js';
import { toBool } from '../shared/db/columns.js';

type Kind = 'int' | 'text' | 'bool' | 'json' | 'datetime';

/** How one entity of the file maps onto its table: [contract field, column, kind]. */
export interface TableSpec {
  table: string;
  idColumn: string;
  fields: readonly (readonly [string, string, Kind])[];
}

const ts = (field: string, column: string) => [field, column, 'datetime'] as const;
const str = (field: string, column: string) => [field, column, 'text'] as const;

export const TABLES = {
  companies: { table: 'companies', idColumn: 'id', fields: [['id', 'id', 'int'], str('name', 'name')] },
  customers: {
    table: 'customers',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['companyId', 'company_id', 'int'], str('name', 'name')],
  },
  sites: {
    table: 'sites',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['customerId', 'customer_id', 'int'], str('name', 'name')],
  },
  staff: {
    table: 'staff',
    idColumn: 'id',
    fields: [
      ['id', 'id', 'int'],
      ['companyId', 'company_id', 'int'],
      str('staffId', 'staff_id'),
      str('firstName', 'first_name'),
      str('lastName', 'last_name'),
      str('employeeReferenceNumber', 'employee_reference_number'),
      str('email', 'email'),
      str('mobile', 'mobile'),
      str('subcontractorCompany', 'subcontractor_company'),
    ],
  },
  licenses: {
    table: 'licenses',
    idColumn: 'security_license_id',
    fields: [
      ['securityLicenseId', 'security_license_id', 'int'],
      ['employeeId', 'employee_id', 'int'],
      str('state', 'state'),
      str('licenseNumber', 'license_number'),
      str('status', 'status'),
      ts('expiryDate', 'expiry_date'),
      ['reminder', 'reminder', 'int'],
      ['critical', 'critical', 'bool'],
      str('attachmentLink', 'attachment_link'),
      str('licenceSector', 'licence_sector'),
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
      str('entryType', 'entry_type'),
      str('position', 'position'),
      str('service', 'service'),
      str('paygroup', 'paygroup'),
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
      str('status', 'status'),
      str('approvedBy', 'approved_by'),
      ts('approvedDateTime', 'approved_date_time'),
      str('customerApprovalStatus', 'customer_approval_status'),
      str('customerApprover', 'customer_approver'),
      ts('customerApprovedDateTime', 'customer_approved_date_time'),
      ['lock', 'lock', 'bool'],
      ['scheduleNotes', 'schedule_notes', 'json'],
    ],
  },
  subscribers: {
    table: 'subscribers',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['companyId', 'company_id', 'int'], str('name', 'name'), str('signingSecret', 'signing_secret')],
  },
  eventFilters: {
    table: 'event_filters',
    idColumn: 'id',
    fields: [['id', 'id', 'int'], ['subscriberId', 'subscriber_id', 'int'], str('event', 'event'), str('eventType', 'event_type')],
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
      return toBool(value);
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
