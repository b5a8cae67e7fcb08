import { z } from 'zod';
import { normaliseDateOrDateTime, normaliseDateTime } from './date-time.js';
import { isSigningSecret } from '../webhooks/signing-secret.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/**
 * The import file: one JSON object with optional arrays, field names as in the external
 * contract. Values come out normalised (date-times as UTC text) and ready to store.
 */

// PostgreSQL `integer` columns hold 32 bits; a larger id would pass here and fail mid-write.
const MAX_INT = 2_147_483_647;
const MAX_TEXT = 1000;
const MAX_URL = 2048;
// Generic objects are stored as JSON text; cap them so one row cannot bloat the database.
const MAX_JSON = 65_536;

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `number ${value}`;
  return typeof value;
}

function expecting(what: string) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined ? 'is required' : `expected ${what}, got ${kindOf(issue.input)}`,
  };
}

function integer(min: number, what: string) {
  return z.number(expecting(what)).superRefine((value, ctx) => {
    if (!Number.isInteger(value) || value < min || value > MAX_INT) {
      ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${value}` });
    }
  });
}

const id = integer(1, 'a positive integer id');
const count = integer(0, 'an integer ≥ 0');

function text(max = MAX_TEXT) {
  return z.string(expecting('a string')).max(max, { error: `must be at most ${max} characters` });
}

const name = text().refine((value) => value.trim() !== '', { error: 'must not be blank' });
const optionalText = text().nullish();
const optionalBool = z.boolean(expecting('true or false')).nullish();

function preview(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function dateTimeOf(normalise: (text: string) => string | null, what: string) {
  return z
    .string(expecting(what))
    .transform((value, ctx) => {
      const normalised = normalise(value);
      if (normalised === null) {
        ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${preview(value)}` });
        return z.NEVER;
      }
      return normalised;
    })
    .nullish();
}

const dateTime = dateTimeOf(normaliseDateTime, 'an ISO 8601 date-time with a time zone (e.g. 2026-01-31T08:00:00Z)');
const expiryDate = dateTimeOf(normaliseDateOrDateTime, 'a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone');

// The contract types these as "object" or "array of objects" and leaves their fields open.
function generic(shape: 'object' | 'array of objects') {
  const expected = shape === 'object' ? 'an object' : 'an array of objects';
  const check = (value: unknown, ctx: z.RefinementCtx) => {
    if (value === null || value === undefined) return;
    const ok = shape === 'object' ? isPlainObject(value) : Array.isArray(value) && value.every(isPlainObject);
    if (!ok) ctx.addIssue({ code: 'custom', message: `expected ${expected}, got ${kindOf(value)}` });
    else if (JSON.stringify(value).length > MAX_JSON) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_JSON} characters as JSON` });
    }
  };
  // `.optional()` last: a refined z.unknown() would otherwise count as a required key.
  return z.unknown().superRefine(check).optional();
}

export const companySchema = z.strictObject({ id, name });

export const customerSchema = z.strictObject({ id, companyId: id, name });

export const siteSchema = z.strictObject({ id, customerId: id, name });

export const staffSchema = z.strictObject({
  id,
  companyId: id,
  staffId: optionalText,
  firstName: optionalText,
  lastName: optionalText,
  employeeReferenceNumber: optionalText,
  email: optionalText,
  mobile: optionalText,
  subcontractorCompany: optionalText,
});

export const licenseSchema = z.strictObject({
  securityLicenseId: id,
  employeeId: id,
  state: optionalText,
  licenseNumber: optionalText,
  status: optionalText,
  expiryDate,
  reminder: count.nullish(),
  critical: optionalBool,
  attachmentLink: text(MAX_URL).nullish(),
  licenceSector: optionalText,
  isInvalidLicense: optionalBool,
});

export const timesheetSchema = z.strictObject({
  timesheetId: id,
  siteId: id,
  employeeId: id,
  entryType: optionalText,
  position: optionalText,
  service: optionalText,
  paygroup: optionalText,
  scheduledStartTime: dateTime,
  scheduledEndTime: dateTime,
  timeclockStartTime: dateTime,
  timeclockBreakStartTime: dateTime,
  timeclockBreakEndTime: dateTime,
  timeclockEndTime: dateTime,
  payStartTime: dateTime,
  payEndTime: dateTime,
  invoiceStartTime: dateTime,
  invoiceEndTime: dateTime,
  clockInCoordinates: generic('object'),
  clockOutCoordinates: generic('object'),
  staffSubmittedTimesheetTimes: generic('array of objects'),
  payBreakTime: count.nullish(),
  invoiceBreakTime: count.nullish(),
  notes: generic('array of objects'),
  allowances: generic('array of objects'),
  status: optionalText,
  approvedBy: optionalText,
  approvedDateTime: dateTime,
  customerApprovalStatus: optionalText,
  customerApprover: optionalText,
  customerApprovedDateTime: dateTime,
  lock: optionalBool,
  scheduleNotes: generic('object'),
});

export const eventFilterSchema = z.strictObject({
  id,
  event: text(200),
  eventType: text(200),
});

export const subscriberSchema = z.strictObject({
  id,
  companyId: id,
  name,
  // The value is never echoed back: it is a secret even when malformed.
  signingSecret: z
    .string(expecting('a string'))
    .refine(isSigningSecret, { error: 'must be "whsec_" followed by the base64 of 24 to 64 bytes' })
    .nullish(),
  eventFilters: z.array(eventFilterSchema, expecting('an array')).nullish(),
});

export type CompanyInput = z.output<typeof companySchema>;
export type CustomerInput = z.output<typeof customerSchema>;
export type SiteInput = z.output<typeof siteSchema>;
export type StaffInput = z.output<typeof staffSchema>;
export type LicenseInput = z.output<typeof licenseSchema>;
export type TimesheetInput = z.output<typeof timesheetSchema>;
export type SubscriberInput = z.output<typeof subscriberSchema>;
export type EventFilterInput = z.output<typeof eventFilterSchema>;

/** Sections of the file in dependency order: a section may only refer to earlier ones. */
export const SECTIONS = {
  companies: { schema: companySchema, idField: 'id' },
  customers: { schema: customerSchema, idField: 'id' },
  sites: { schema: siteSchema, idField: 'id' },
  staff: { schema: staffSchema, idField: 'id' },
  licenses: { schema: licenseSchema, idField: 'securityLicenseId' },
  timesheets: { schema: timesheetSchema, idField: 'timesheetId' },
  subscribers: { schema: subscriberSchema, idField: 'id' },
} as const;

export type Section = keyof typeof SECTIONS;
export const SECTION_NAMES = Object.keys(SECTIONS) as Section[];

export type ReferenceTarget = 'companies' | 'customers' | 'sites' | 'staff';

/** Every reference field of the format and the section whose ids it names. */
export const REFERENCES: readonly { section: Section; field: string; target: ReferenceTarget }[] = [
  { section: 'customers', field: 'companyId', target: 'companies' },
  { section: 'sites', field: 'customerId', target: 'customers' },
  { section: 'staff', field: 'companyId', target: 'companies' },
  { section: 'licenses', field: 'employeeId', target: 'staff' },
  { section: 'timesheets', field: 'siteId', target: 'sites' },
  { section: 'timesheets', field: 'employeeId', target: 'staff' },
  { section: 'subscribers', field: 'companyId', target: 'companies' },
];
