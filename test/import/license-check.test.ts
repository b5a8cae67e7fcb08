import { describe, expect, it } from 'vitest';
import { acceptLicense } from '../../src/import/license-check.js';
import { licenseSchema } from '../../src/import/format.js';

/**
 * The hand-written license check must never accept what zod refuses, and must give exactly
 * zod's output for what it accepts; whatever it passes on, zod decides (and words the problems).
 */

const valid = {
  securityLicenseId: 70001,
  employeeId: 1001,
  state: 'NSW',
  licenseNumber: 'NSW-70001',
  status: 'Active',
  expiryDate: '2027-01-01T00:00:00Z',
  reminder: 30,
  critical: false,
  attachmentLink: 'https://files.example.com/70001.pdf',
  licenceSector: 'Security',
  isInvalidLicense: false,
};

const VALUES: unknown[] = [
  undefined,
  null,
  0,
  1,
  -1,
  1.5,
  2_147_483_647,
  2_147_483_648,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  ' ',
  'x',
  'x'.repeat(1000),
  'x'.repeat(1001),
  'x'.repeat(2048),
  'x'.repeat(2049),
  'é'.repeat(1000),
  '😀'.repeat(501),
  true,
  false,
  [],
  {},
  '2027-01-01',
  '2027-02-30',
  '2027-01-01T00:00:00Z',
  '2027-01-01T00:00:00.000Z',
  '2027-01-01T10:00:00+10:00',
  '2027-01-01T23:59:59.123456789-05:30',
  '2027-01-01T24:00:00Z',
  '2027-01-01T00:00:00',
  '2027-13-01T00:00:00Z',
  '2028-02-29T00:00:00.000Z',
  '2027-02-29T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
  '2027-01-01T00:00:60Z',
  '2027-01-01T00:00:00+24:00',
  '2027-1-01',
  ' 2027-01-01',
];

const FIELDS = Object.keys(valid) as (keyof typeof valid)[];

/** Every field set to every value, every field left out, unknown and odd keys, odd elements. */
function corpus(): Record<string, unknown>[] {
  const elements: Record<string, unknown>[] = [valid, { securityLicenseId: 1, employeeId: 1 }, {}];
  for (const field of FIELDS) {
    const { [field]: _left, ...without } = valid;
    elements.push(without);
    for (const value of VALUES) elements.push({ ...valid, [field]: value });
  }
  elements.push({ ...valid, extra: 1 });
  elements.push({ extra: 1 });
  elements.push(JSON.parse('{"securityLicenseId": 5, "employeeId": 6, "__proto__": {"x": 1}}') as Record<string, unknown>);
  elements.push({ ...valid, securityLicenseId: 'x', employeeId: null, reminder: -1, critical: 'yes', extra: true });
  // Keys in another order than the schema's.
  elements.push(Object.fromEntries(Object.entries(valid).reverse()));
  return elements;
}

/** What apply.ts gets for an element: the hand check when it accepts, zod otherwise. */
function checked(element: Record<string, unknown>) {
  const accepted = acceptLicense(element);
  return accepted ? { success: true, data: accepted } : licenseSchema.safeParse(element);
}

describe('the hand-written license check', () => {
  const elements = corpus();

  it('knows every field of the schema, in its order', () => {
    // A new field (or a reordered one) must be taught to license-check.ts as well.
    expect(Object.keys(licenseSchema.shape)).toEqual(FIELDS);
  });

  it('gives zod’s outcome, output and problems for every element of the corpus', () => {
    let accepted = 0;
    for (const element of elements) {
      const zod = licenseSchema.safeParse(element);
      const ours = checked(element);
      if (acceptLicense(element)) {
        accepted++;
        expect(zod.success, JSON.stringify(element)).toBe(true);
      }
      expect(ours.success, JSON.stringify(element)).toBe(zod.success);
      if (zod.success) expect(ours.data, JSON.stringify(element)).toStrictEqual(zod.data);
      else expect((ours as typeof zod).error!.issues).toEqual(zod.error.issues);
    }
    // Most valid variations are decided without zod.
    expect(accepted).toBeGreaterThan(150);
  });

  it('accepts what zod accepts for random mixes of the values', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let i = 0; i < 5_000; i++) {
      const element: Record<string, unknown> = {};
      for (const field of FIELDS) {
        const pick = random(VALUES.length + 4);
        if (pick < VALUES.length) element[field] = VALUES[pick];
        else if (pick < VALUES.length + 3) element[field] = valid[field];
      }
      const zod = licenseSchema.safeParse(element);
      const ours = checked(element);
      expect(ours.success).toBe(zod.success);
      if (zod.success) expect(ours.data).toStrictEqual(zod.data);
    }
  });
});
