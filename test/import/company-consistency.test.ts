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

  it('judges a timesheet by the companies after the import, not before', async () => {
    await importData(t.db, fullFile());
    // Staff 2001 moves to company 1 in the same file, so a timesheet at site 100 is fine...
    const summary = await importData(t.db, {
      staff: [{ id: 2001, companyId: 1, firstName: 'Jo' }],
      timesheets: [
        { timesheetId: 9002, siteId: 100, employeeId: 2001, status: 'APPROVED' },
        { timesheetId: 9964, siteId: 100, employeeId: 2001 },
      ],
    });
    expect(summary.entities.timesheets.inserted).toEqual([9964]);
    // ...while a stored timesheet made consistent before is judged with the move: site 100 moving away breaks it.
    const problems = await refused({
      sites: [{ id: 100, customerId: 20, name: 'North Gate' }],
      timesheets: [{ timesheetId: 9965, siteId: 100, employeeId: 2001 }],
    });
    expect(problems).toEqual([
      'sites[0].customerId: site 100 moves to company 2, but timesheet 9001 still links it to staff 1001 of company 1 (and 2 more timesheets)',
      'timesheets[0].employeeId: staff 2001 belongs to company 1, but site 100 belongs to company 2',
    ]);
  });

  it('accepts timesheets that stay within one company, including a whole company moving together', async () => {
    const file = fullFile();
    file.timesheets.push({ timesheetId: 9003, siteId: 200, employeeId: 2001, status: 'Pending' });
    await importData(t.db, file);
    const summary = await importData(t.db, {
      customers: [{ id: 10, companyId: 2, name: 'Harbour Mall' }],
      staff: [{ id: 1001, companyId: 2, firstName: 'Alex' }],
      timesheets: [{ timesheetId: 9004, siteId: 100, employeeId: 2001 }],
    });
    expect(summary.entities.customers.updated).toEqual([10]);
    expect(summary.entities.staff.updated).toEqual([1001]);
    expect(summary.entities.timesheets.inserted).toEqual([9004]);
  });

  it('leaves problems of invalid elements to the shape checks', async () => {
    const file = fullFile();
    file.staff[1] = { id: 2001, companyId: 'two' } as never;
    file.timesheets.push({ timesheetId: 9960, siteId: 100, employeeId: 2001, status: 'Pending' });
    expect(await refused(file)).toEqual(['staff[1].companyId: expected a positive integer id, got string']);
  });
});

describe('moving a record to another company', () => {
  beforeEach(async () => {
    const file = fullFile();
    file.timesheets.push({ timesheetId: 9003, siteId: 100, employeeId: 1001, status: 'Pending' });
    await importData(t.db, file);
  });

  it('refuses to move staff away from the company of their stored timesheets', async () => {
    expect(await refused({ staff: [{ id: 1001, companyId: 2, firstName: 'Alex' }] })).toEqual([
      'staff[0].companyId: staff 1001 moves to company 2, but timesheet 9001 still links it to site 100 of company 1 (and 1 more timesheet)',
    ]);
  });

  it('refuses to move a site to a customer of another company', async () => {
    expect(await refused({ sites: [{ id: 100, customerId: 20, name: 'North Gate' }] })).toEqual([
      'sites[0].customerId: site 100 moves to company 2, but timesheet 9001 still links it to staff 1001 of company 1 (and 1 more timesheet)',
    ]);
  });

  it('refuses to move a customer whose sites have timesheets to another company', async () => {
    expect(await refused({ customers: [{ id: 10, companyId: 2, name: 'Harbour Mall' }] })).toEqual([
      'customers[0].companyId: customer 10 moves to company 2, but timesheet 9001 still links its site 100 to staff 1001 of company 1 (and 1 more timesheet)',
    ]);
  });

  it('accepts a move once the file restates the stored timesheets to fit it', async () => {
    const summary = await importData(t.db, {
      staff: [{ id: 1001, companyId: 2, firstName: 'Alex' }],
      timesheets: [
        { timesheetId: 9001, siteId: 200, employeeId: 1001 },
        { timesheetId: 9003, siteId: 200, employeeId: 1001 },
      ],
    });
    expect(summary.entities.staff.updated).toEqual([1001]);
    expect(summary.entities.timesheets.updated).toEqual([9001, 9003]);
  });

  it('accepts a move of staff without timesheets', async () => {
    await importData(t.db, { staff: [{ id: 1002, companyId: 1 }] });
    const summary = await importData(t.db, { staff: [{ id: 1002, companyId: 2 }] });
    expect(summary.entities.staff.updated).toEqual([1002]);
  });

  it('finds the conflict among many stored timesheets quickly', async () => {
    const timesheets = Array.from({ length: 10_000 }, (_, i) => ({ timesheetId: 100_000 + i, siteId: 100, employeeId: 1001 }));
    await importData(t.db, { timesheets });
    const started = Date.now();
    expect(await refused({ staff: [{ id: 1001, companyId: 2 }] })).toEqual([
      'staff[0].companyId: staff 1001 moves to company 2, but timesheet 9001 still links it to site 100 of company 1 (and 10001 more timesheets)',
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
