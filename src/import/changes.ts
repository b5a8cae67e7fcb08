import type { Outcome, PlannedRow } from './plan.js';

export interface LicenseChange {
  securityLicenseId: number;
  outcome: Outcome;
}

export interface TimesheetChange {
  timesheetId: number;
  outcome: Outcome;
  statusBefore: string | null;
  statusAfter: string | null;
  /**
   * The status is now "Approved" (any case) and was not before; a timesheet inserted already
   * approved counts, since nobody has been told about it yet.
   */
  becameApproved: boolean;
}

/** What the import did to the records that events are raised for, handed to `onChanges`. */
export interface ImportChanges {
  licenses: LicenseChange[];
  timesheets: TimesheetChange[];
}

const isApproved = (status: unknown) => typeof status === 'string' && status.toLowerCase() === 'approved';

export function timesheetChangeOf({ id, outcome, row, before }: PlannedRow): TimesheetChange {
  const statusBefore = before?.status == null ? null : String(before.status);
  const statusAfter = row.status == null ? null : String(row.status);
  return { timesheetId: id, outcome, statusBefore, statusAfter, becameApproved: isApproved(statusAfter) && !isApproved(statusBefore) };
}
