import { parkEventFilters, upsertRows } from '../repositories/import-tables.js';
import type { Tx } from '../shared/db/knex.js';
import type { ImportPlan } from './plan.js';
import { ENTITIES, TABLES } from './rows.js';

/**
 * Two stored filters of one subscriber may swap pairs in a single import. Upserting row by row
 * would trip the (subscriber, event, eventType) unique index halfway, so filters whose pair
 * changes are first parked on a pair no real filter can have.
 */
async function parkChangedEventFilters(trx: Tx, plan: ImportPlan): Promise<void> {
  const moving = plan.rows.eventFilters
    .filter(({ outcome, row, before }) => outcome === 'updated' && (row.event !== before?.event || row.event_type !== before?.event_type))
    .map(({ id }) => id);
  await parkEventFilters(trx, moving);
}

/** Writes the inserted and updated rows, parents before children, inside the caller's transaction. */
export async function writePlan(trx: Tx, plan: ImportPlan): Promise<void> {
  await parkChangedEventFilters(trx, plan);
  for (const entity of ENTITIES) {
    const spec = TABLES[entity];
    const rows = plan.rows[entity].filter(({ outcome }) => outcome !== 'unchanged').map(({ row }) => row);
    await upsertRows(trx, spec.table, spec.idColumn, rows, spec.fields.length);
  }
}
