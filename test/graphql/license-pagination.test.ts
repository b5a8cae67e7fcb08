import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectData, expectFieldError, LICENSE_SELECTION } from './helpers.js';

// Staff 1001 has 45 licenses, securityLicenseId 50001..50045 (NSW-0001..NSW-0045).
const ALL_IDS = Array.from({ length: 45 }, (_, i) => 50001 + i);

const PAGE = `query Page($employeeId: Int!, $first: Int, $after: String, $last: Int, $before: String, $licenseNumber: String) {
  staff(employeeId: $employeeId) {
    licenses(first: $first, after: $after, last: $last, before: $before, licenseNumber: $licenseNumber) {
      edges { cursor node { securityLicenseId licenseNumber } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}`;

interface Page {
  edges: { cursor: string; node: { securityLicenseId: number; licenseNumber: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

describe('GraphQL: Staff.licenses Relay pagination', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  async function page(variables: Record<string, unknown>, employeeId = 1001): Promise<Page> {
    const data = expectData(await t.graphql(token, PAGE, { employeeId, ...variables }));
    const connection = data.staff.licenses as Page;
    // startCursor/endCursor are the cursors of the first and last edge; an empty page reached
    // through a cursor has both (its place in the list), an empty first page has neither.
    if (connection.edges.length > 0) {
      expect(connection.pageInfo.startCursor).toBe(connection.edges[0]!.cursor);
      expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1)!.cursor);
    } else {
      expect(connection.pageInfo.startCursor).toBe(connection.pageInfo.endCursor);
      if (variables.after == null && variables.before == null) expect(connection.pageInfo.startCursor).toBeNull();
    }
    return connection;
  }

  const ids = (p: Page) => p.edges.map((e) => e.node.securityLicenseId);

  it('walks forward with first/after: every license exactly once, in order, with the right flags', async () => {
    const seen: number[] = [];
    const flags: [boolean, boolean][] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const p = await page({ first: 10, after });
      seen.push(...ids(p));
      flags.push([p.pageInfo.hasPreviousPage, p.pageInfo.hasNextPage]);
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(seen).toEqual(ALL_IDS);
    expect(flags).toEqual([
      [false, true],
      [true, true],
      [true, true],
      [true, true],
      [true, false],
    ]);
  });

  it('walks backward with last/before: every license exactly once, each page in ascending order', async () => {
    const pages: number[][] = [];
    const flags: [boolean, boolean][] = [];
    let before: string | null = null;
    for (let i = 0; i < 10; i++) {
      const p = await page({ last: 10, before });
      const pageIds = ids(p);
      expect(pageIds).toEqual([...pageIds].sort((a, b) => a - b));
      pages.unshift(pageIds);
      flags.push([p.pageInfo.hasPreviousPage, p.pageInfo.hasNextPage]);
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    expect(pages.flat()).toEqual(ALL_IDS);
    expect(pages.map((p) => p.length)).toEqual([5, 10, 10, 10, 10]);
    expect(flags).toEqual([
      [true, false],
      [true, true],
      [true, true],
      [true, true],
      [false, true],
    ]);
  });

  it('turns around: before the start of page 2 is page 1, after the end of page 1 is page 2', async () => {
    const first = await page({ first: 7 });
    const second = await page({ first: 7, after: first.pageInfo.endCursor });
    expect(ids(second)).toEqual(ALL_IDS.slice(7, 14));
    const back = await page({ last: 7, before: second.pageInfo.startCursor });
    expect(ids(back)).toEqual(ids(first));
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
  });

  it('accepts page sizes 1 and 100', async () => {
    expect(ids(await page({ first: 1 }))).toEqual([50001]);
    expect(ids(await page({ last: 1 }))).toEqual([50045]);
    const all = await page({ first: 100 });
    expect(ids(all)).toEqual(ALL_IDS);
    expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('reads every field of a security license (docs/rest-api.md)', async () => {
    const data = expectData(
      await t.graphql(token, `{ staff(employeeId: 1001) { licenses(first: 2) { edges { node { ${LICENSE_SELECTION} } } } } }`),
    );
    expect(data.staff.licenses.edges[1].node).toEqual({
      securityLicenseId: 50002,
      employeeId: 1001,
      firstName: 'Alex',
      lastName: 'Nguyen',
      state: 'NSW',
      licenseNumber: 'NSW-0002',
      status: 'Active',
      expiryDate: '2027-06-30T00:00:00.000Z',
      reminder: 30,
      critical: true,
      attachmentLink: 'https://files.example.com/licenses/50002.pdf',
      licenceSector: 'Security',
      isInvalidLicense: false,
      employeeSecurityLicenseInfo: {
        employeeSecurityLicenseId: 50002,
        currentStatus: 'Active',
        expiryDate: '2027-06-30T00:00:00.000Z',
        licenceSector: 'Security',
      },
    });
  });

  describe('licenseNumber filter', () => {
    beforeAll(async () => {
      // Three more licenses for staff 1002 sharing one number, to page through a filtered list.
      await t.app.db('licenses').insert(
        [60002, 60003, 60004].map((id) => ({
          security_license_id: id,
          employee_id: 1002,
          state: 'VIC',
          license_number: 'VIC-SHARED',
          status: 'Active',
          expiry_date: '2027-01-01T00:00:00.000Z',
          reminder: 14,
          critical: false,
          attachment_link: null,
          licence_sector: 'Security',
          is_invalid_license: false,
        })),
      );
    });

    it('returns only the license with that number', async () => {
      const p = await page({ first: 10, licenseNumber: 'NSW-0007' });
      expect(p.edges.map((e) => e.node)).toEqual([{ securityLicenseId: 50007, licenseNumber: 'NSW-0007' }]);
      expect(p.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    });

    it('is an exact match, not a prefix or pattern', async () => {
      expect(ids(await page({ first: 10, licenseNumber: 'NSW-000' }))).toEqual([]);
      expect(ids(await page({ first: 10, licenseNumber: 'NSW-000%' }))).toEqual([]);
      expect(ids(await page({ first: 10, licenseNumber: 'nsw-0007' }))).toEqual([]);
    });

    it('does not find another employee’s license number', async () => {
      const p = await page({ first: 10, licenseNumber: 'VIC-0001' });
      expect(p.edges).toEqual([]);
      expect(p.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
    });

    it('keeps the filter across pages', async () => {
      const one = await page({ first: 2, licenseNumber: 'VIC-SHARED' }, 1002);
      expect(ids(one)).toEqual([60002, 60003]);
      expect(one.pageInfo.hasNextPage).toBe(true);
      const two = await page({ first: 2, after: one.pageInfo.endCursor, licenseNumber: 'VIC-SHARED' }, 1002);
      expect(ids(two)).toEqual([60004]);
      expect(two.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    });
  });

  describe('a page whose records moved away after its cursor was issued', () => {
    /** Licenses of staff 1002 numbered `number`, ids from..from+count-1; returns the ids. */
    async function insertLicenses(from: number, count: number, number: string): Promise<number[]> {
      const ids = Array.from({ length: count }, (_, i) => from + i);
      await t.app.db('licenses').insert(
        ids.map((id) => ({ security_license_id: id, employee_id: 1002, state: 'VIC', license_number: number, status: 'Active' })),
      );
      return ids;
    }

    const licensesOf1002 = (variables: Record<string, unknown>) => page(variables, 1002);

    it('deleted: the empty page after the cursor still leads back to the records before it', async () => {
      const all = await insertLicenses(61001, 6, 'GONE');
      const one = await licensesOf1002({ first: 3, licenseNumber: 'GONE' });
      expect(ids(one)).toEqual(all.slice(0, 3));
      await t.app.db('licenses').whereIn('security_license_id', all.slice(3)).delete();

      const two = await licensesOf1002({ first: 3, after: one.pageInfo.endCursor });
      expect(two.edges).toEqual([]);
      expect(two.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, startCursor: expect.any(String) });

      const back = await licensesOf1002({ last: 3, before: two.pageInfo.startCursor });
      expect(ids(back)).toEqual(all.slice(0, 3));
      expect(back.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    });

    it('no longer matching the filter: the way back is the same', async () => {
      const all = await insertLicenses(61011, 6, 'MOVING');
      const one = await licensesOf1002({ first: 3, licenseNumber: 'MOVING' });
      await t.app.db('licenses').whereIn('security_license_id', all.slice(3)).update({ license_number: 'MOVED' });

      const two = await licensesOf1002({ first: 3, after: one.pageInfo.endCursor });
      expect(two.edges).toEqual([]);
      expect(two.pageInfo.hasPreviousPage).toBe(true);
      expect(ids(await licensesOf1002({ last: 3, before: two.pageInfo.startCursor }))).toEqual(all.slice(0, 3));
      // Going forward again from the empty page finds what arrives after the cursor later.
      await t.app.db('licenses').where('security_license_id', all[4]!).update({ license_number: 'MOVING' });
      expect(ids(await licensesOf1002({ first: 3, after: two.pageInfo.endCursor }))).toEqual([all[4]]);
    });

    it('walking backwards: the empty page before the cursor still leads forward to the records after it', async () => {
      const all = await insertLicenses(61021, 6, 'BACK');
      const last = await licensesOf1002({ last: 3, licenseNumber: 'BACK' });
      expect(ids(last)).toEqual(all.slice(3));
      await t.app.db('licenses').whereIn('security_license_id', all.slice(0, 3)).delete();

      const before = await licensesOf1002({ last: 3, before: last.pageInfo.startCursor });
      expect(before.edges).toEqual([]);
      expect(before.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true, endCursor: expect.any(String) });

      const forward = await licensesOf1002({ first: 3, after: before.pageInfo.endCursor });
      expect(ids(forward)).toEqual(all.slice(3));
      expect(forward.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    });

    it('everything gone: the empty page offers no way anywhere', async () => {
      const all = await insertLicenses(61031, 4, 'ALLGONE');
      const one = await licensesOf1002({ first: 2, licenseNumber: 'ALLGONE' });
      await t.app.db('licenses').whereIn('security_license_id', all).delete();
      const two = await licensesOf1002({ first: 2, after: one.pageInfo.endCursor });
      expect(two.edges).toEqual([]);
      expect(two.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
    });
  });

  describe('argument errors', () => {
    it.each([
      ['first', 0],
      ['first', -1],
      ['first', 101],
      ['last', 0],
      ['last', 101],
    ])('%s: %i is BAD_USER_INPUT', async (name, value) => {
      const data = expectFieldError(await t.graphql(token, PAGE, { employeeId: 1001, [name]: value }), 'BAD_USER_INPUT', [
        'staff',
        'licenses',
      ]);
      expect(data.staff).toBeNull();
    });

    async function expectBadCursor(variables: Record<string, unknown>, employeeId = 1001): Promise<void> {
      const data = expectFieldError(await t.graphql(token, PAGE, { employeeId, ...variables }), 'BAD_CURSOR', ['staff', 'licenses']);
      expect(data.staff).toBeNull();
    }

    it('a malformed cursor is BAD_CURSOR, after or before', async () => {
      await expectBadCursor({ first: 5, after: 'not-a-cursor' });
      await expectBadCursor({ last: 5, before: 'not-a-cursor' });
      await expectBadCursor({ first: 5, after: Buffer.from('cursor:50010').toString('base64') });
    });

    it('a tampered cursor is BAD_CURSOR', async () => {
      const cursor = (await page({ first: 3 })).pageInfo.endCursor!;
      for (const at of [2, Math.floor(cursor.length / 2), cursor.length - 2]) {
        const swapped = cursor[at] === 'A' ? 'B' : 'A';
        await expectBadCursor({ first: 3, after: cursor.slice(0, at) + swapped + cursor.slice(at + 1) });
      }
    });

    it('a cursor of another employee’s list is BAD_CURSOR', async () => {
      const other = await page({ first: 1 }, 1002);
      await expectBadCursor({ first: 5, after: other.pageInfo.endCursor });
    });
  });
});
