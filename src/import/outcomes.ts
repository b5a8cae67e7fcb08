import type { ShownChanges } from '../repositories/timesheets.js';
import { timesheetChangeOf, type ImportChanges, type TimesheetChange } from './changes.js';
import type { Outcome, PlannedRow } from './plan.js';
import { ENTITIES, type Entity } from './rows.js';
import { changedShown, SHOWN_ENTITIES, type ShownEntity } from './shown-changes.js';
import type { EntitySummary, ImportSummary } from './summary.js';

const SHOWN_IDS = { sites: 'siteIds', customers: 'customerIds', staff: 'employeeIds' } as const;
const OUTCOMES: readonly Outcome[] = ['inserted', 'updated', 'unchanged'];

/** At most this many changes go to one call of the onChanges hook. */
export const CHANGES_PER_CALL = 10_000;

/** A growing list of 32-bit integers (ids fit: the import caps them at 2^31 - 1), 4 bytes each. */
class IntList {
  private data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }
}

/**
 * What an import did, gathered chunk by chunk as rows are planned: per entity each id and its
 * outcome in file order (5 bytes a record), the timesheet changes events are raised for, and
 * what timesheet entries show. The stored and new rows themselves are not kept.
 */
export class ImportOutcomes {
  private readonly ids = Object.fromEntries(ENTITIES.map((e) => [e, new IntList()])) as Record<Entity, IntList>;
  private readonly outcomes = Object.fromEntries(ENTITIES.map((e) => [e, [] as number[]])) as Record<Entity, number[]>;
  private readonly timesheetChanges: TimesheetChange[] = [];
  readonly generatedSecrets: number[] = [];
  readonly shown = { timesheetIds: [] as number[], siteIds: [] as number[], customerIds: [] as number[], employeeIds: [] as number[] } satisfies ShownChanges;

  add(entity: Entity, planned: readonly PlannedRow[]): void {
    const ids = this.ids[entity];
    const outcomes = this.outcomes[entity];
    for (const { id, outcome } of planned) {
      ids.push(id);
      outcomes.push(OUTCOMES.indexOf(outcome));
    }
    if (entity === 'timesheets') {
      for (const row of planned) {
        this.timesheetChanges.push(timesheetChangeOf(row));
        if (row.outcome !== 'unchanged') this.shown.timesheetIds.push(row.id);
      }
    } else if ((SHOWN_ENTITIES as string[]).includes(entity)) {
      const shownEntity = entity as ShownEntity;
      for (const id of changedShown(shownEntity, planned)) this.shown[SHOWN_IDS[shownEntity]].push(id);
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
        part.licenses.push({ securityLicenseId: licenses.at(index), outcome: OUTCOMES[outcomes[index]!]! });
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
      const outcomes = this.outcomes[entity];
      for (let i = 0; i < ids.length; i++) summary[OUTCOMES[outcomes[i]!]!].push(ids.at(i));
      entities[entity] = summary;
    }
    return { entities, generatedSigningSecrets: [...this.generatedSecrets] };
  }
}
