import type { ShownChanges } from '../repositories/timesheets.js';
import { timesheetChangeOf, type ImportChanges } from './changes.js';
import type { PlannedRow } from './plan.js';
import { ENTITIES, type Entity } from './rows.js';
import { changedShown, SHOWN_ENTITIES } from './shown-changes.js';
import type { EntitySummary, ImportSummary } from './summary.js';

const SHOWN_IDS = { sites: 'siteIds', customers: 'customerIds', staff: 'employeeIds' } as const;

/**
 * What an import did, gathered chunk by chunk as rows are planned: ids per outcome, the
 * changes events are raised for, and what timesheet entries show. The stored and new rows
 * themselves are not kept.
 */
export class ImportOutcomes {
  readonly entities = Object.fromEntries(ENTITIES.map((e) => [e, { inserted: [], updated: [], unchanged: [] }])) as unknown as Record<Entity, EntitySummary>;
  readonly generatedSecrets: number[] = [];
  readonly changes: ImportChanges = { licenses: [], timesheets: [] };
  readonly shown = { timesheetIds: [] as number[], siteIds: [] as number[], customerIds: [] as number[], employeeIds: [] as number[] } satisfies ShownChanges;

  add(entity: Entity, planned: readonly PlannedRow[]): void {
    const summary = this.entities[entity];
    for (const { id, outcome } of planned) summary[outcome].push(id);
    if (entity === 'licenses') {
      for (const { id, outcome } of planned) this.changes.licenses.push({ securityLicenseId: id, outcome });
    } else if (entity === 'timesheets') {
      for (const row of planned) {
        this.changes.timesheets.push(timesheetChangeOf(row));
        if (row.outcome !== 'unchanged') this.shown.timesheetIds.push(row.id);
      }
    } else if ((SHOWN_ENTITIES as string[]).includes(entity)) {
      const shownEntity = entity as (typeof SHOWN_ENTITIES)[number];
      for (const id of changedShown(shownEntity, planned)) this.shown[SHOWN_IDS[shownEntity]].push(id);
    }
  }

  summary(): ImportSummary {
    return { entities: this.entities, generatedSigningSecrets: [...this.generatedSecrets] };
  }
}
