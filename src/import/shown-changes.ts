import type { PlannedRow } from './plan.js';
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

function shownSpec(entity: ShownEntity): TableSpec {
  const shown: readonly string[] = SHOWN_COLUMNS[entity];
  const spec: TableSpec = TABLES[entity];
  return { ...spec, fields: spec.fields.filter(([, column]) => shown.includes(column)) };
}

export type ShownEntity = keyof typeof SHOWN_COLUMNS;

export const SHOWN_ENTITIES = Object.keys(SHOWN_COLUMNS) as ShownEntity[];

/** Ids of the updated rows whose shown columns differ from the stored ones. */
export function changedShown(entity: ShownEntity, rows: readonly PlannedRow[]): number[] {
  const spec = shownSpec(entity);
  return rows.filter(({ outcome, row, before }) => outcome === 'updated' && before !== null && !sameRow(spec, row, before)).map(({ id }) => id);
}
