import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importData, ImportValidationError } from '../../src/import/import-data.js';
import { fullFile, SECRET_A, snapshot, tempDatabase, type TempDatabase } from './support.js';

let t: TempDatabase;
beforeEach(async () => {
  t = await tempDatabase();
});
afterEach(async () => {
  await t.close();
});

/** The problem lines of a file that must be rejected. */
async function problemsOf(input: unknown): Promise<string[]> {
  try {
    await importData(t.db, input);
  } catch (error) {
    if (error instanceof ImportValidationError) return error.problems;
    throw error;
  }
  throw new Error('the import was accepted');
}

const base = () => ({
  companies: [{ id: 1, name: 'Acme' }],
  customers: [{ id: 10, companyId: 1, name: 'Mall' }],
  sites: [{ id: 100, customerId: 10, name: 'Gate' }],
  staff: [{ id: 1001, companyId: 1 }],
});

describe('problems are reported with their path', () => {
  it('names a reference that resolves neither in the file nor in the database', async () => {
    const timesheets = [0, 1, 2, 3].map((i) => ({ timesheetId: 9000 + i, siteId: i === 3 ? 99 : 100, employeeId: 1001 }));
    expect(await problemsOf({ ...base(), timesheets })).toEqual(['timesheets[3].siteId: site 99 does not exist']);
  });

  it('checks every kind of reference', async () => {
    const problems = await problemsOf({
      customers: [{ id: 10, companyId: 5, name: 'Mall' }],
      sites: [{ id: 100, customerId: 11, name: 'Gate' }],
      staff: [{ id: 1001, companyId: 5 }],
      licenses: [{ securityLicenseId: 1, employeeId: 7 }],
      timesheets: [{ timesheetId: 1, siteId: 100, employeeId: 8 }],
      subscribers: [{ id: 1, companyId: 6, name: 'Hook' }],
    });
    expect(problems).toEqual([
      'customers[0].companyId: company 5 does not exist',
      'sites[0].customerId: customer 11 does not exist',
      'staff[0].companyId: company 5 does not exist',
      'licenses[0].employeeId: employee 7 does not exist',
      'timesheets[0].employeeId: employee 8 does not exist',
      'subscribers[0].companyId: company 6 does not exist',
    ]);
  });

  it('accepts a reference stored in the database but rejects one that is in neither place', async () => {
    await importData(t.db, base());
    expect(
      await problemsOf({
        timesheets: [
          { timesheetId: 1, siteId: 100, employeeId: 1001 },
          { timesheetId: 2, siteId: 100, employeeId: 1002 },
        ],
      }),
    ).toEqual(['timesheets[1].employeeId: employee 1002 does not exist']);
  });

  it('does not call a reference to an invalid element missing', async () => {
    const file = base();
    file.sites[0] = { id: 100, customerId: 10, name: 42 } as never;
    const problems = await problemsOf({ ...file, timesheets: [{ timesheetId: 1, siteId: 100, employeeId: 1001 }] });
    expect(problems).toEqual(['sites[0].name: expected a string, got number']);
  });

  it('reports wrong types, missing required fields and out-of-range numbers', async () => {
    const problems = await problemsOf({
      companies: [{ id: '1', name: 'Acme' }, { id: 2 }, { id: 3.5, name: ' ' }],
      licenses: [{ securityLicenseId: 1, employeeId: 1, critical: 'yes', reminder: -1, attachmentLink: 'x'.repeat(2049) }],
      timesheets: [{ timesheetId: 1, siteId: 1, employeeId: 1, payBreakTime: 1.5, notes: { text: 'not an array' }, lock: 0 }],
      staff: [null],
    });
    expect(problems).toEqual([
      'companies[0].id: expected a positive integer id, got string',
      'companies[1].name: is required',
      'companies[2].id: expected a positive integer id, got 3.5',
      'companies[2].name: must not be blank',
      'staff[0]: expected an object, got null',
      'licenses[0].reminder: expected an integer ≥ 0, got -1',
      'licenses[0].critical: expected true or false, got string',
      'licenses[0].attachmentLink: must be at most 2048 characters',
      'licenses[0].employeeId: employee 1 does not exist',
      'timesheets[0].payBreakTime: expected an integer ≥ 0, got 1.5',
      'timesheets[0].notes: expected an array of objects, got object',
      'timesheets[0].lock: expected true or false, got number',
      'timesheets[0].siteId: site 1 does not exist',
      'timesheets[0].employeeId: employee 1 does not exist',
    ]);
  });

  it('rejects ids beyond a 32-bit integer, which PostgreSQL could not store', async () => {
    expect(await problemsOf({ companies: [{ id: 2_147_483_648, name: 'Big' }] })).toEqual([
      'companies[0].id: expected a positive integer id, got 2147483648',
    ]);
  });

  it('rejects date-times without a zone, impossible dates and free text', async () => {
    const problems = await problemsOf({
      ...base(),
      timesheets: [
        {
          timesheetId: 1,
          siteId: 100,
          employeeId: 1001,
          scheduledStartTime: '2026-01-31T08:00:00',
          scheduledEndTime: '2026-02-30T08:00:00Z',
          approvedDateTime: 'yesterday',
          payStartTime: '2026-01-31',
        },
      ],
      licenses: [
        { securityLicenseId: 1, employeeId: 1001, expiryDate: '2027-13-01' },
        { securityLicenseId: 2, employeeId: 1001, expiryDate: '2027-02-28' },
      ],
    });
    const hint = 'expected an ISO 8601 date-time with a time zone (e.g. 2026-01-31T08:00:00Z)';
    expect(problems).toEqual([
      'licenses[0].expiryDate: expected a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone, got "2027-13-01"',
      `timesheets[0].scheduledStartTime: ${hint}, got "2026-01-31T08:00:00"`,
      `timesheets[0].scheduledEndTime: ${hint}, got "2026-02-30T08:00:00Z"`,
      `timesheets[0].payStartTime: ${hint}, got "2026-01-31"`,
      `timesheets[0].approvedDateTime: ${hint}, got "yesterday"`,
    ]);
  });

  it('reports duplicate ids within one array, even in otherwise invalid elements', async () => {
    const problems = await problemsOf({
      companies: [
        { id: 1, name: 'A' },
        { id: 2, name: 'B' },
        { id: 1, name: 'A again' },
        { id: 2, name: 7 },
      ],
    });
    expect(problems).toEqual([
      'companies[2].id: duplicate id 1 (first at companies[0])',
      'companies[3].id: duplicate id 2 (first at companies[1])',
      'companies[3].name: expected a string, got number',
    ]);
  });

  it('reports unknown fields and unknown top-level keys', async () => {
    const problems = await problemsOf({
      ...base(),
      employees: [],
      staff: [{ id: 1001, companyId: 1, nickname: 'Al', 'bad key': 1 }],
      subscribers: [{ id: 1, companyId: 1, name: 'Hook', eventFilters: [{ id: 1, event: 'timesheet', eventType: 'created', uri: 'x' }] }],
    });
    expect(problems).toEqual([
      'employees: unknown top-level key (expected companies, customers, sites, staff, licenses, timesheets, subscribers)',
      'staff[0].nickname: unknown field',
      'staff[0]["bad key"]: unknown field',
      'subscribers[0].eventFilters[0].uri: unknown field',
    ]);
  });

  it('reports a root that is not an object and sections that are not arrays', async () => {
    expect(await problemsOf([1, 2])).toEqual(['(root): expected a JSON object, got array']);
    expect(await problemsOf({ companies: { id: 1 } })).toEqual(['companies: expected an array, got object']);
  });

  it('rejects a malformed signing secret without echoing it', async () => {
    const tooShort = 'whsec_' + Buffer.alloc(16, 1).toString('base64');
    const problems = await problemsOf({
      companies: [{ id: 1, name: 'Acme' }],
      subscribers: [
        { id: 1, companyId: 1, name: 'A', signingSecret: tooShort },
        { id: 2, companyId: 1, name: 'B', signingSecret: 'sk_live_not_base64!' },
        { id: 3, companyId: 1, name: 'C', signingSecret: SECRET_A },
      ],
    });
    const reason = 'must be "whsec_" followed by the base64 of 24 to 64 bytes';
    expect(problems).toEqual([`subscribers[0].signingSecret: ${reason}`, `subscribers[1].signingSecret: ${reason}`]);
    expect(problems.join('\n')).not.toContain('sk_live');
  });

  it('rejects an event filter id that belongs to another subscriber', async () => {
    await importData(t.db, fullFile());
    const problems = await problemsOf({
      subscribers: [{ id: 401, companyId: 2, name: 'Other payroll', eventFilters: [{ id: 3011, event: 'timesheet', eventType: 'approved' }] }],
    });
    expect(problems).toEqual(['subscribers[0].eventFilters[0].id: event filter 3011 belongs to subscriber 301']);
  });

  it('rejects blank, uncatalogued, repeated or already-subscribed event/eventType pairs and repeated filter ids', async () => {
    await importData(t.db, fullFile());
    const problems = await problemsOf({
      subscribers: [
        {
          id: 301,
          companyId: 1,
          name: 'Acme payroll',
          eventFilters: [
            { id: 3013, event: 'license', eventType: 'expiring' },
            { id: 3014, event: ' ', eventType: 'x' },
            { id: 3015, event: 'timesheet', eventType: 'created' },
            { id: 3016, event: 'timesheet', eventType: 'created' },
            { id: 3015, event: 'timesheet', eventType: 'updated' },
            { id: 3017, event: 'shift', eventType: 'started' },
          ],
        },
      ],
    });
    expect(problems).toEqual([
      'subscribers[0].eventFilters[0]: subscriber 301 already has this event/eventType pair as event filter 3012',
      'subscribers[0].eventFilters[1]: event must not be blank',
      'subscribers[0].eventFilters[3]: duplicate event/eventType pair for subscriber 301 (same as subscribers[0].eventFilters[2])',
      'subscribers[0].eventFilters[4].id: duplicate event filter id 3015 (first at subscribers[0].eventFilters[2])',
      expect.stringMatching(/^subscribers\[0\]\.eventFilters\[5\]: shift\/started is not in the event catalog/),
    ]);
  });

  it('reports every problem in one go, capped with a final count', async () => {
    const timesheets = Array.from({ length: 1_200 }, (_, i) => ({ timesheetId: i + 1, siteId: 100, employeeId: 1001, lock: 'no' }));
    let error: unknown;
    try {
      await importData(t.db, { ...base(), timesheets });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ImportValidationError);
    const { problems, problemCount } = error as ImportValidationError;
    expect(problemCount).toBe(1_200);
    expect(problems).toHaveLength(1_001);
    expect(problems[0]).toBe('timesheets[0].lock: expected true or false, got string');
    expect(problems[999]).toBe('timesheets[999].lock: expected true or false, got string');
    expect(problems[1_000]).toBe('… and 200 more');
  });
});

describe('all or nothing', () => {
  it('leaves every table exactly as it was when the file has any problem', async () => {
    await importData(t.db, fullFile());
    const before = await snapshot(t.db);
    const file = fullFile();
    file.companies.push({ id: 3, name: 'New Co' });
    file.companies[0]!.name = 'Changed';
    file.timesheets[0]!.status = 'Approved';
    file.subscribers.push({ id: 402, companyId: 2, name: 'New hook', eventFilters: [] });
    file.timesheets.push({ timesheetId: 9999, siteId: 99, employeeId: 1001, status: 'Approved' });

    expect(await problemsOf(file)).toEqual(['timesheets[2].siteId: site 99 does not exist']);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('writes nothing into an empty database either', async () => {
    const before = await snapshot(t.db);
    const file = fullFile();
    file.licenses[0]!.reminder = -3;
    await expect(importData(t.db, file)).rejects.toBeInstanceOf(ImportValidationError);
    expect(await snapshot(t.db)).toEqual(before);
    expect(Object.values(before).every((rows) => rows.length === 0)).toBe(true);
  });
});
