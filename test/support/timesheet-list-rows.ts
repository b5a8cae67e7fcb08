import type { Db } from '../../src/shared/db/knex.js';

/** Thirty more company-1 entries over sites 100, 101 and 110 and staff 1001 and 1002, and three of company 2. */
export interface ListedTimesheet {
  id: number;
  siteId: number;
  customerId: number;
  employeeId: number;
  status: string;
  start: string;
  /** When the entry was last written (modified_at); a few entries share a millisecond. */
  modified: string;
}

/** Ten distinct modification times in October 2026, reused round-robin. */
const modifiedAt = (i: number) => new Date(Date.UTC(2026, 9, 1 + (i % 10), 12)).toISOString();

const SITE_CUSTOMER: Record<number, number> = { 100: 10, 101: 10, 110: 11, 200: 20 };

export const LISTED_TIMESHEETS: ListedTimesheet[] = [
  ...[9001, 9002, 9003].map((id, i) => ({
    id,
    siteId: [100, 101, 110][i]!,
    customerId: SITE_CUSTOMER[[100, 101, 110][i]!]!,
    employeeId: i === 2 ? 1002 : 1001,
    status: 'Pending',
    start: '2026-11-02T21:00:00.000Z',
    modified: modifiedAt(i + 7),
  })),
  ...Array.from({ length: 30 }, (_, i) => {
    const siteId = [100, 101, 110][i % 3]!;
    return {
      id: 9101 + i,
      siteId,
      customerId: SITE_CUSTOMER[siteId]!,
      employeeId: i % 2 === 0 ? 1001 : 1002,
      status: i % 4 === 0 ? 'Approved' : 'Pending',
      start: new Date(Date.UTC(2026, 11, 1, i)).toISOString(),
      modified: modifiedAt(i),
    };
  }),
];

export const FOREIGN_TIMESHEETS = [9004, 9201, 9202, 9203];

/** Every foreign entry was last written at this time. */
export const FOREIGN_MODIFIED = '2026-10-20T00:00:00.000Z';

export async function insertListedTimesheets(db: Db): Promise<void> {
  const rows = LISTED_TIMESHEETS.filter((t) => t.id > 9100).map((t) => ({
    timesheet_id: t.id,
    site_id: t.siteId,
    employee_id: t.employeeId,
    status: t.status,
    scheduled_start_time: t.start,
    modified_at: t.modified,
  }));
  for (const id of FOREIGN_TIMESHEETS.slice(1)) {
    rows.push({
      timesheet_id: id,
      site_id: 200,
      employee_id: 2001,
      status: 'Pending',
      scheduled_start_time: '2026-12-01T00:00:00.000Z',
      modified_at: FOREIGN_MODIFIED,
    });
  }
  await db.batchInsert('timesheets', rows, 50);
  // The seeded entries were written when the database was set up; give them known times too.
  for (const t of LISTED_TIMESHEETS.filter((x) => x.id < 9100)) {
    await db('timesheets').where('timesheet_id', t.id).update({ modified_at: t.modified });
  }
  await db('timesheets').where('timesheet_id', FOREIGN_TIMESHEETS[0]).update({ modified_at: FOREIGN_MODIFIED });
}

/** The ids a list should show, in order. */
export function expectedIds(match: (t: ListedTimesheet) => boolean): number[] {
  return LISTED_TIMESHEETS.filter(match).map((t) => t.id);
}
