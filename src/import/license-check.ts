import { normaliseDateOrDateTime } from './date-time.js';
import type { LicenseInput } from './format.js';

/**
 * The license schema's rules (format.ts), written out for the one section a large file is made
 * of: zod's general machinery costs several times what these few comparisons do. It only ever
 * decides that an element is valid, and then gives what `licenseSchema.safeParse` gives (the
 * fields present, in the schema's order, the expiry date normalised). Anything it does not accept
 * goes to zod, which words the problems, so every refusal is zod's own
 * (test/import/license-check.test.ts compares both on valid and invalid elements).
 */

const MAX_INT = 2_147_483_647;
const MAX_TEXT = 1000;
const MAX_URL = 2048;

const FIELDS = [
  'securityLicenseId',
  'employeeId',
  'state',
  'licenseNumber',
  'status',
  'expiryDate',
  'reminder',
  'critical',
  'attachmentLink',
  'licenceSector',
  'isInvalidLicense',
] as const;
const KNOWN: ReadonlySet<string> = new Set(FIELDS);

const isId = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INT;
const isText = (value: unknown, max: number) => value == null || (typeof value === 'string' && value.length <= max);
const isFlag = (value: unknown) => value == null || typeof value === 'boolean';

/** The parsed license, or undefined when zod must look at the element (it may still be valid). */
export function acceptLicense(element: Record<string, unknown>): LicenseInput | undefined {
  for (const key in element) if (!KNOWN.has(key)) return undefined;
  if (!isId(element.securityLicenseId) || !isId(element.employeeId)) return undefined;
  if (!isText(element.state, MAX_TEXT) || !isText(element.licenseNumber, MAX_TEXT) || !isText(element.status, MAX_TEXT)) return undefined;
  if (!isText(element.licenceSector, MAX_TEXT) || !isText(element.attachmentLink, MAX_URL)) return undefined;
  if (!isFlag(element.critical) || !isFlag(element.isInvalidLicense)) return undefined;
  const reminder = element.reminder;
  if (reminder != null && !(typeof reminder === 'number' && Number.isInteger(reminder) && reminder >= 0 && reminder <= MAX_INT)) return undefined;
  let expiry = element.expiryDate;
  if (expiry != null) {
    if (typeof expiry !== 'string') return undefined;
    const normalised = normaliseDateOrDateTime(expiry);
    if (normalised === null) return undefined;
    expiry = normalised;
  }
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (field === 'expiryDate') {
      if ('expiryDate' in element) out.expiryDate = expiry;
    } else if (field in element) out[field] = element[field];
  }
  return out as LicenseInput;
}
