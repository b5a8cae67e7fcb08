import type { ShownChanges } from '../repositories/timesheets.js';
import type { ImportPlan, PlannedRow } from './plan.js';
import { sameRow, TABLES, type TableSpec } from './rows.js';

/**
 * The columns of a site, customer or staff row that a timesheet entry shows
 * (docs/rest-api.md, Timesheet entry): changing one changes the entry as a reader sees it, so
 * the entry counts as modified; changing another column of that row does not.
 */
const SHOWN_COLUMNS = {
  sites: ['name', 'customer_id'],
  customers: ['name'],
  staff: ['staff_id', 'first_name', 'last_name', 'employee_reference_number', 'email', 'mobile', 'subcontractor_company'],
} as const;

function shownSpec(entity: keyof typeof SHOWN_COLUMNS): TableSpec {
  const shown: readonly string[] = SHOWN_COLUMNS[entity];
  const spec: TableSpec = TABLES[entity];
  return { ...spec, fields: spec.fields.filter(([, column]) => shown.includes(column)) };
}

/** Ids of the updated rows whose shown columns differ from the stored ones. */
function changedShown(entity: keyof typeof SHOWN_COLUMNS, rows: readonly PlannedRow[]): number[] {
  const spec = shownSpec(entity);
  return rows.filter(({ outcome, row, before }) => outcome === 'updated' && before !== null && !sameRow(spec, row, before)).map(({ id }) => id);
}

/** What an import changed that timesheet entries show; unchanged records are left out. */
export function shownChangesOf(plan: ImportPlan): ShownChanges {
  return {
    timesheetIds: plan.rows.timesheets.filter(({ outcome }) => outcome !== 'unchanged').map(({ id }) => id),
    siteIds: changedShown('sites', plan.rows.sites),
    customerIds: changedShown('customers', plan.rows.customers),
    employeeIds: changedShown('staff', plan.rows.staff),
  };
}
