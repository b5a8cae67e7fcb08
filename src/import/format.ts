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

const expecting = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `expected ${what}, got ${kindOf(issue.input)}`),
});

function integer(min: number, what: string) {
  return z.number(expecting(what)).superRefine((value, ctx) => {
    if (!Number.isInteger(value) || value < min || value > MAX_INT) {
      ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${value}` });
    }
  });
}

function text(max = MAX_TEXT) {
  return z.string(expecting('a string')).max(max, { error: `must be at most ${max} characters` });
}

/** How a field is stored and compared (rows.ts); a field of a type not registered here has no column. */
export type Kind = 'int' | 'text' | 'bool' | 'json' | 'datetime';
export const KINDS = new Map<z.ZodType, Kind>();
const stored = <T extends z.ZodType>(kind: Kind, type: T): T => (KINDS.set(type, kind), type);

const id = stored('int', integer(1, 'a positive integer id'));
const optionalCount = stored('int', integer(0, 'an integer ≥ 0').nullish());
const name = stored('text', text().refine((value) => value.trim() !== '', { error: 'must not be blank' }));
const optionalText = stored('text', text().nullish());
const pairText = stored('text', text(200));
const optionalBool = stored('bool', z.boolean(expecting('true or false')).nullish());

function dateTimeOf(normalise: (text: string) => string | null, what: string) {
  const type = z
    .string(expecting(what))
    .transform((value, ctx) => {
      const normalised = normalise(value);
      if (normalised === null) {
        const preview = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
        ctx.addIssue({ code: 'custom', message: `expected ${what}, got ${preview}` });
        return z.NEVER;
      }
      return normalised;
    })
    .nullish();
  return stored('datetime', type);
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
  return stored('json', z.unknown().superRefine(check).optional());
}

const genericObject = generic('object');
const genericArray = generic('array of objects');

// The value is never echoed back: it is a secret even when malformed.
const signingSecret = stored(
  'text',
  z.string(expecting('a string')).refine(isSigningSecret, { error: 'must be "whsec_" followed by the base64 of 24 to 64 bytes' }).nullish(),
);

export const eventFilterSchema = z.strictObject({ id, event: pairText, eventType: pairText });

/** Sections of the file in dependency order (a section may only refer to earlier ones); a record's id is its first field. */
export const SECTIONS = {
  companies: z.strictObject({ id, name }),
  customers: z.strictObject({ id, companyId: id, name }),
  sites: z.strictObject({ id, customerId: id, name }),
  staff: z.strictObject({
    id,
    companyId: id,
    staffId: optionalText,
    firstName: optionalText,
    lastName: optionalText,
    employeeReferenceNumber: optionalText,
    email: optionalText,
    mobile: optionalText,
    subcontractorCompany: optionalText,
  }),
  licenses: z.strictObject({
    securityLicenseId: id,
    employeeId: id,
    state: optionalText,
    licenseNumber: optionalText,
    status: optionalText,
    expiryDate,
    reminder: optionalCount,
    critical: optionalBool,
    attachmentLink: stored('text', text(MAX_URL).nullish()),
    licenceSector: optionalText,
    isInvalidLicense: optionalBool,
  }),
  timesheets: z.strictObject({
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
    clockInCoordinates: genericObject,
    clockOutCoordinates: genericObject,
    staffSubmittedTimesheetTimes: genericArray,
    payBreakTime: optionalCount,
    invoiceBreakTime: optionalCount,
    notes: genericArray,
    allowances: genericArray,
    status: optionalText,
    approvedBy: optionalText,
    approvedDateTime: dateTime,
    customerApprovalStatus: optionalText,
    customerApprover: optionalText,
    customerApprovedDateTime: dateTime,
    lock: optionalBool,
    scheduleNotes: genericObject,
  }),
  subscribers: z.strictObject({
    id,
    companyId: id,
    name,
    signingSecret,
    eventFilters: z.array(eventFilterSchema, expecting('an array')).nullish(),
  }),
} as const;

export type SubscriberInput = z.output<typeof SECTIONS.subscribers>;

export type Section = keyof typeof SECTIONS;
export const SECTION_NAMES = Object.keys(SECTIONS) as Section[];
export const isSection = (key: string): key is Section => Object.hasOwn(SECTIONS, key);

export type ReferenceTarget = 'companies' | 'customers' | 'sites' | 'staff';

/** The reference fields of each section and the section whose ids each names. */
export const REFERENCES: Record<Section, readonly { field: string; target: ReferenceTarget }[]> = {
  companies: [],
  customers: [{ field: 'companyId', target: 'companies' }],
  sites: [{ field: 'customerId', target: 'customers' }],
  staff: [{ field: 'companyId', target: 'companies' }],
  licenses: [{ field: 'employeeId', target: 'staff' }],
  timesheets: [
    { field: 'siteId', target: 'sites' },
    { field: 'employeeId', target: 'staff' },
  ],
  subscribers: [{ field: 'companyId', target: 'companies' }],
};
