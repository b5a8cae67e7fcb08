import type { ShownChanges } from '../repositories/timesheets.js';
import type { Outcome, PlannedRow } from './plan.js';
import { ENTITIES, sameRow, TABLES, type Entity, type TableSpec } from './rows.js';
import { IntList } from './id-index.js';

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

export type EntitySummary = Record<Outcome, number[]>;

export interface ImportSummary {
  /** Per entity, the ids inserted, updated (stored values changed) and unchanged. */
  entities: Record<Entity, EntitySummary>;
  /** Subscribers created without a signingSecret, for which one was generated. */
  generatedSigningSecrets: number[];
}

const isApproved = (status: unknown) => typeof status === 'string' && status.toLowerCase() === 'approved';

function timesheetChangeOf({ id, outcome, row, before }: PlannedRow): TimesheetChange {
  const statusBefore = before?.status == null ? null : String(before.status);
  const statusAfter = row.status == null ? null : String(row.status);
  return { timesheetId: id, outcome, statusBefore, statusAfter, becameApproved: isApproved(statusAfter) && !isApproved(statusBefore) };
}

/**
 * The columns of a site, customer or staff row that a timesheet entry shows
 * (docs/rest-api.md, Timesheet entry): changing one changes the entry as a reader sees it, so
 * the entry counts as modified; changing another column of that row does not. Each with the
 * list of ShownChanges its ids go to.
 */
const SHOWN = {
  sites: { ids: 'siteIds', columns: ['name', 'customer_id'] },
  customers: { ids: 'customerIds', columns: ['name'] },
  staff: { ids: 'employeeIds', columns: ['staff_id', 'first_name', 'last_name', 'employee_reference_number', 'email', 'mobile', 'subcontractor_company'] },
} as const;

function shownSpec(entity: keyof typeof SHOWN): TableSpec {
  const columns: readonly string[] = SHOWN[entity].columns;
  const spec: TableSpec = TABLES[entity];
  return { ...spec, fields: spec.fields.filter(([, column]) => columns.includes(column)) };
}

const OUTCOMES: readonly Outcome[] = ['inserted', 'updated', 'unchanged'];

/** At most this many changes go to one call of the onChanges hook. */
export const CHANGES_PER_CALL = 10_000;

/**
 * What an import did, gathered chunk by chunk as rows are planned: per entity each id and its
 * outcome in file order (8 bytes a record), the timesheet changes events are raised for, and what timesheet entries
 * show. The stored and new rows themselves are not kept.
 */
export class ImportOutcomes {
  private readonly ids = Object.fromEntries(ENTITIES.map((e) => [e, new IntList()])) as Record<Entity, IntList>;
  private readonly outcomes = Object.fromEntries(ENTITIES.map((e) => [e, new IntList()])) as Record<Entity, IntList>;
  private readonly timesheetChanges: TimesheetChange[] = [];
  readonly generatedSecrets: number[] = [];
  readonly shown = { timesheetIds: [] as number[], siteIds: [] as number[], customerIds: [] as number[], employeeIds: [] as number[] } satisfies ShownChanges;

  add(entity: Entity, planned: readonly PlannedRow[]): void {
    for (const { id, outcome } of planned) {
      this.ids[entity].push(id);
      this.outcomes[entity].push(OUTCOMES.indexOf(outcome));
    }
    if (entity === 'timesheets') {
      for (const row of planned) {
        this.timesheetChanges.push(timesheetChangeOf(row));
        if (row.outcome !== 'unchanged') this.shown.timesheetIds.push(row.id);
      }
    } else if (Object.hasOwn(SHOWN, entity)) {
      const shown = entity as keyof typeof SHOWN;
      const spec = shownSpec(shown);
      for (const { id, outcome, row, before } of planned) {
        // Ids of the updated rows whose shown columns differ from the stored ones.
        if (outcome === 'updated' && before !== null && !sameRow(spec, row, before)) this.shown[SHOWN[shown].ids].push(id);
      }
    }
  }

  /**
   * The changes for the onChanges hook, in parts of at most CHANGES_PER_CALL: every timesheet
   * before any license, each kind in file order. A file of fewer changes makes one part.
   */
  *changes(): Generator<ImportChanges> {
    const timesheets = this.timesheetChanges;
    const licenses = this.ids.licenses;
    const outcomes = this.outcomes.licenses;
    const total = timesheets.length + licenses.length;
    let start = 0;
    do {
      const end = Math.min(total, start + CHANGES_PER_CALL);
      const part: ImportChanges = { licenses: [], timesheets: timesheets.slice(start, Math.min(end, timesheets.length)) };
      for (let i = Math.max(start, timesheets.length); i < end; i++) {
        const index = i - timesheets.length;
        part.licenses.push({ securityLicenseId: licenses.at(index)!, outcome: OUTCOMES[outcomes.at(index)!]! });
      }
      yield part;
      start = end;
    } while (start < total);
  }

  summary(): ImportSummary {
    const entities = {} as Record<Entity, EntitySummary>;
    for (const entity of ENTITIES) {
      const summary: EntitySummary = { inserted: [], updated: [], unchanged: [] };
      const ids = this.ids[entity];
      for (let i = 0; i < ids.length; i++) summary[OUTCOMES[this.outcomes[entity].at(i)!]!].push(ids.at(i)!);
      entities[entity] = summary;
    }
    return { entities, generatedSigningSecrets: [...this.generatedSecrets] };
  }
}

/** A few lines for a terminal: totals and time taken, then one line per entity that the file mentioned. */
export function formatSummary(summary: ImportSummary, seconds: number): string {
  const counts = (inserted: number, updated: number, unchanged: number) => {
    const records = inserted + updated + unchanged;
    return `${inserted} inserted, ${updated} updated, ${unchanged} unchanged (${records} ${records === 1 ? 'record' : 'records'}`;
  };
  const lines: string[] = [];
  const total = { inserted: 0, updated: 0, unchanged: 0 };
  for (const entity of ENTITIES) {
    const { inserted, updated, unchanged } = summary.entities[entity];
    total.inserted += inserted.length;
    total.updated += updated.length;
    total.unchanged += unchanged.length;
    if (inserted.length + updated.length + unchanged.length > 0) lines.push(`  ${entity}: ${counts(inserted.length, updated.length, unchanged.length)})`);
  }
  const head = `import complete: ${counts(total.inserted, total.updated, total.unchanged)} in ${seconds.toFixed(2)} s)`;
  if (summary.generatedSigningSecrets.length > 0) {
    lines.push(`  signing secrets generated for subscribers ${summary.generatedSigningSecrets.join(', ')}`);
  }
  return [head, ...lines].join('\n');
}
