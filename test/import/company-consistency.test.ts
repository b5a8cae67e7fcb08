import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importData, ImportValidationError } from '../../src/import/import-data.js';
import { fullFile, snapshot, tempDatabase, type TempDatabase } from './support.js';

// fullFile(): company 1 has customer 10, site 100 and staff 1001 (timesheet 9001);
// company 2 has customer 20, site 200 and staff 2001 (timesheet 9002).

let t: TempDatabase;
beforeEach(async () => {
  t = await tempDatabase();
});
afterEach(async () => {
  await t.close();
});

/** The problem lines of a file that must be refused; also checks that nothing was written. */
async function refused(input: unknown): Promise<string[]> {
  const before = await snapshot(t.db);
  let problems: string[] | undefined;
  try {
    await importData(t.db, input);
  } catch (error) {
    if (!(error instanceof ImportValidationError)) throw error;
    problems = error.problems;
  }
  if (!problems) throw new Error('the import was accepted');
  expect(await snapshot(t.db)).toEqual(before);
  return problems;
}

describe('a timesheet ties a site and an employee of one company', () => {
  it('refuses a timesheet whose site and employee are both in the file but in different companies', async () => {
    const file = fullFile();
    file.timesheets.push({ timesheetId: 9960, siteId: 100, employeeId: 2001, status: 'Pending' });
    expect(await refused(file)).toEqual(['timesheets[2].employeeId: staff 2001 belongs to company 2, but site 100 belongs to company 1']);
    expect(await t.db('timesheets').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('refuses a cross-company timesheet whose site and employee are both stored', async () => {
    await importData(t.db, fullFile());
    await importData(t.db, { staff: [{ id: 1007, companyId: 2, firstName: 'Sam', email: 'sam@other.example' }] });
    const problems = await refused({
      timesheets: [
        { timesheetId: 9959, siteId: 200, employeeId: 1007 },
        { timesheetId: 9960, siteId: 100, employeeId: 1007 },
      ],
    });
    expect(problems).toEqual(['timesheets[1].employeeId: staff 1007 belongs to company 2, but site 100 belongs to company 1']);
    expect(await t.db('timesheets').where('timesheet_id', 9960).first()).toBeUndefined();
  });

  it('resolves one side from the file and the other from the database', async () => {
    await importData(t.db, fullFile());
    // A new employee in the file, a stored site.
    expect(
      await refused({ staff: [{ id: 3001, companyId: 2 }], timesheets: [{ timesheetId: 9961, siteId: 100, employeeId: 3001 }] }),
    ).toEqual(['timesheets[0].employeeId: staff 3001 belongs to company 2, but site 100 belongs to company 1']);
    // A new site in the file under a stored customer, a stored employee.
    expect(
      await refused({ sites: [{ id: 300, customerId: 20, name: 'Dock' }], timesheets: [{ timesheetId: 9962, siteId: 300, employeeId: 1001 }] }),
    ).toEqual(['timesheets[0].employeeId: staff 1001 belongs to company 1, but site 300 belongs to company 2']);
    // A new customer in the file, a stored site moved under it, a stored employee.
    expect(
      await refused({
        customers: [{ id: 30, companyId: 2, name: 'New client' }],
        sites: [{ id: 300, customerId: 30, name: 'Dock' }],
        timesheets: [{ timesheetId: 9963, siteId: 300, employeeId: 1001 }],
      }),
    ).toEqual(['timesheets[0].employeeId: staff 1001 belongs to company 1, but site 300 belongs to company 2']);
  });

  it('accepts timesheets that stay within one company, a site moving between customers of that company included', async () => {
    const file = fullFile();
    file.customers.push({ id: 11, companyId: 1, name: 'Quay Arcade' });
    await importData(t.db, file);
    const summary = await importData(t.db, {
      sites: [{ id: 100, customerId: 11, name: 'North Gate' }],
      timesheets: [{ timesheetId: 9004, siteId: 100, employeeId: 1001 }],
    });
    expect(summary.entities.sites.updated).toEqual([100]);
    expect(summary.entities.timesheets.inserted).toEqual([9004]);
  });

  it('leaves problems of invalid elements to the shape checks', async () => {
    const file = fullFile();
    file.staff[1] = { id: 2001, companyId: 'two' } as never;
    file.timesheets.push({ timesheetId: 9960, siteId: 100, employeeId: 2001, status: 'Pending' });
    expect(await refused(file)).toEqual(['staff[1].companyId: expected a positive integer id, got string']);
  });
});

describe('a stored record stays in its company', () => {
  beforeEach(async () => {
    const file = fullFile();
    file.timesheets.push({ timesheetId: 9003, siteId: 100, employeeId: 1001, status: 'Pending' });
    await importData(t.db, file);
  });

  it('refuses a customer, staff member or subscriber given another companyId', async () => {
    expect(
      await refused({
        customers: [{ id: 10, companyId: 2, name: 'Harbour Mall' }],
        staff: [{ id: 1001, companyId: 2, firstName: 'Alex' }],
        subscribers: [{ id: 301, companyId: 2, name: 'Acme payroll' }],
      }),
    ).toEqual([
      'customers[0].companyId: customer 10 belongs to company 1 and cannot move to company 2',
      'staff[0].companyId: staff 1001 belongs to company 1 and cannot move to company 2',
      'subscribers[0].companyId: subscriber 301 belongs to company 1 and cannot move to company 2',
    ]);
  });

  it('refuses a move even when nothing stored ties the record to its company', async () => {
    await importData(t.db, { staff: [{ id: 1002, companyId: 1 }], customers: [{ id: 15, companyId: 1, name: 'Quiet' }] });
    expect(await refused({ staff: [{ id: 1002, companyId: 2 }], customers: [{ id: 15, companyId: 2, name: 'Quiet' }] })).toEqual([
      'customers[0].companyId: customer 15 belongs to company 1 and cannot move to company 2',
      'staff[0].companyId: staff 1002 belongs to company 1 and cannot move to company 2',
    ]);
  });

  it('refuses a site, license or timesheet whose parent in the file is of another company', async () => {
    expect(
      await refused({
        sites: [{ id: 100, customerId: 20, name: 'North Gate' }],
        licenses: [{ securityLicenseId: 50001, employeeId: 2001 }],
        timesheets: [{ timesheetId: 9001, siteId: 200, employeeId: 2001 }],
      }),
    ).toEqual([
      'sites[0].customerId: site 100 belongs to company 1 and cannot move to company 2',
      'licenses[0].employeeId: license 50001 belongs to company 1 and cannot move to company 2',
      'timesheets[0].siteId: timesheet 9001 belongs to company 1 and cannot move to company 2',
    ]);
  });

  it('refuses records whose company changes through a parent the file moves with them', async () => {
    expect(
      await refused({
        customers: [{ id: 30, companyId: 2, name: 'New client' }],
        sites: [{ id: 100, customerId: 30, name: 'North Gate' }],
        staff: [{ id: 3001, companyId: 2 }],
        licenses: [{ securityLicenseId: 50001, employeeId: 3001 }],
      }),
    ).toEqual([
      'sites[0].customerId: site 100 belongs to company 1 and cannot move to company 2',
      'licenses[0].employeeId: license 50001 belongs to company 1 and cannot move to company 2',
    ]);
  });

  it('refuses an event filter of another subscriber', async () => {
    expect(await refused({ subscribers: [{ id: 401, companyId: 2, name: 'Other payroll', eventFilters: [{ id: 3011, event: 'timesheet', eventType: 'approved' }] }] })).toEqual([
      'subscribers[0].eventFilters[0].id: event filter 3011 belongs to subscriber 301',
    ]);
  });

  it('reports every record that would move, past the first chunk and after other problems', async () => {
    const licenses = Array.from({ length: 1_200 }, (_, i) => ({ securityLicenseId: 60_000 + i, employeeId: 1001 }));
    await importData(t.db, { licenses });
    const moved = licenses.map((l) => ({ ...l, employeeId: 2001 }));
    (moved[0] as Record<string, unknown>).critical = 'yes';
    const problems = await refused({ licenses: moved });
    expect(problems).toHaveLength(1_001);
    expect(problems[0]).toBe('licenses[0].critical: expected true or false, got string');
    expect(problems[1]).toBe('licenses[1].employeeId: license 60001 belongs to company 1 and cannot move to company 2');
    expect(problems[1_000]).toBe('… and 200 more');
  });

  it('keeps the stored timesheets of a stored record in its company', async () => {
    const summary = await importData(t.db, {
      staff: [{ id: 1001, companyId: 1, firstName: 'Alex' }],
      timesheets: [{ timesheetId: 9003, siteId: 100, employeeId: 1001, status: 'Approved' }],
    });
    expect(summary.entities.staff.updated).toEqual([1001]);
    expect(summary.entities.timesheets.updated).toEqual([9003]);
  });
});
