import type { ShownChanges } from '../repositories/timesheets.js';
import { IntList } from './id-index.js';
import { ENTITIES, sameRow, TABLES, type Entity, type Outcome, type PlannedRow, type TableSpec } from './rows.js';

export interface LicenseChange {
  securityLicenseId: number;
  outcome: Outcome;
}

export interface TimesheetChange {
  timesheetId: number;
  outcome: Outcome;
  statusBefore: string | null;
  statusAfter: string | null;
  /** The status is now "Approved" (any case) and was not before: an inserted timesheet too, as nobody was told of it. */
  becameApproved: boolean;
}

/** What the import did to the records that events are raised for, handed to `onChanges`. */
export interface ImportChanges {
  licenses: LicenseChange[];
  timesheets: TimesheetChange[];
}

type EntitySummary = Record<Outcome, number[]>;

export interface ImportSummary {
  /** Per entity, the ids inserted, updated (stored values changed) and unchanged. */
  entities: Record<Entity, EntitySummary>;
  /** Subscribers created without a signingSecret, for which one was generated. */
  generatedSigningSecrets: number[];
}

const OUTCOMES: readonly Outcome[] = ['inserted', 'updated', 'unchanged'];
/** At most this many changes go to one call of the onChanges hook. */
const CHANGES_PER_CALL = 10_000;

const isApproved = (status: string | null) => status?.toLowerCase() === 'approved';
const text = (value: unknown) => (value == null ? null : String(value));

/**
 * The columns of a site, customer or staff member that a timesheet entry shows (docs/rest-api.md,
 * Timesheet entry): changing one modifies the entry as a reader sees it; changing another does not.
 */
function shown(entity: 'sites' | 'customers' | 'staff', ids: keyof ShownChanges, columns: readonly string[]) {
  const spec: TableSpec = TABLES[entity];
  return { ids, spec: { ...spec, fields: spec.fields.filter(([, column]) => columns.includes(column)) } };
}

const SHOWN: Partial<Record<Entity, ReturnType<typeof shown>>> = {
  sites: shown('sites', 'siteIds', ['name', 'customer_id']),
  customers: shown('customers', 'customerIds', ['name']),
  staff: shown('staff', 'employeeIds', ['staff_id', 'first_name', 'last_name', 'employee_reference_number', 'email', 'mobile', 'subcontractor_company']),
};

/**
 * What an import did, gathered chunk by chunk as rows are planned: per entity each id and its
 * outcome in file order, the timesheet changes events are raised for, and what timesheet
 * entries show. The stored and new rows themselves are not kept.
 */
export class ImportOutcomes {
  private readonly ids = Object.fromEntries(ENTITIES.map((e) => [e, new IntList()])) as Record<Entity, IntList>;
  private readonly outcomes = Object.fromEntries(ENTITIES.map((e) => [e, new IntList()])) as Record<Entity, IntList>;
  private readonly timesheetChanges: TimesheetChange[] = [];
  readonly generatedSecrets: number[] = [];
  readonly shown: Record<keyof ShownChanges, number[]> = { timesheetIds: [], siteIds: [], customerIds: [], employeeIds: [] };

  add(entity: Entity, planned: readonly PlannedRow[]): void {
    const ids = this.ids[entity];
    const outcomes = this.outcomes[entity];
    for (const { id, outcome } of planned) {
      ids.push(id);
      outcomes.push(OUTCOMES.indexOf(outcome));
    }
    if (entity === 'timesheets') {
      for (const { id, outcome, row, before } of planned) {
        const statusBefore = text(before?.status);
        const statusAfter = text(row.status);
        this.timesheetChanges.push({ timesheetId: id, outcome, statusBefore, statusAfter, becameApproved: isApproved(statusAfter) && !isApproved(statusBefore) });
        if (outcome !== 'unchanged') this.shown.timesheetIds.push(id);
      }
    }
    const shown = SHOWN[entity];
    if (!shown) return;
    for (const { id, outcome, row, before } of planned) {
      if (outcome === 'updated' && before !== null && !sameRow(shown.spec, row, before)) this.shown[shown.ids].push(id);
    }
  }

  /**
   * The changes for the onChanges hook, in parts of at most CHANGES_PER_CALL: every timesheet
   * before any license, each kind in file order. A file of fewer changes makes one part.
   */
  *changes(): Generator<ImportChanges> {
    const timesheets = this.timesheetChanges;
    const total = timesheets.length + this.ids.licenses.length;
    let start = 0;
    do {
      const end = Math.min(total, start + CHANGES_PER_CALL);
      const part: ImportChanges = { licenses: [], timesheets: timesheets.slice(start, Math.min(end, timesheets.length)) };
      for (let i = Math.max(start, timesheets.length) - timesheets.length; i < end - timesheets.length; i++) {
        part.licenses.push({ securityLicenseId: this.ids.licenses.at(i), outcome: OUTCOMES[this.outcomes.licenses.at(i)]! });
      }
      yield part;
      start = end;
    } while (start < total);
  }

  summary(): ImportSummary {
    const entities = {} as Record<Entity, EntitySummary>;
    for (const entity of ENTITIES) {
      const summary: EntitySummary = (entities[entity] = { inserted: [], updated: [], unchanged: [] });
      for (let i = 0; i < this.ids[entity].length; i++) summary[OUTCOMES[this.outcomes[entity].at(i)]!].push(this.ids[entity].at(i));
    }
    return { entities, generatedSigningSecrets: [...this.generatedSecrets] };
  }
}

/** A few lines for a terminal: totals and time taken, then one line per entity that the file mentioned. */
export function formatSummary(summary: ImportSummary, seconds: number): string {
  const counts = (of: readonly EntitySummary[]) => {
    const [inserted, updated, unchanged] = OUTCOMES.map((outcome) => of.reduce((sum, entity) => sum + entity[outcome].length, 0)) as [number, number, number];
    const records = inserted + updated + unchanged;
    return `${inserted} inserted, ${updated} updated, ${unchanged} unchanged (${records} ${records === 1 ? 'record' : 'records'}`;
  };
  const lines = [`import complete: ${counts(Object.values(summary.entities))} in ${seconds.toFixed(2)} s)`];
  for (const entity of ENTITIES) {
    const of = summary.entities[entity];
    if (OUTCOMES.some((outcome) => of[outcome].length > 0)) lines.push(`  ${entity}: ${counts([of])})`);
  }
  if (summary.generatedSigningSecrets.length > 0) lines.push(`  signing secrets generated for subscribers ${summary.generatedSigningSecrets.join(', ')}`);
  return lines.join('\n');
}
