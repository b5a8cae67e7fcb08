import { parkEventFilters, upsertRows } from '../repositories/import-tables.js';
import type { Tx } from '../shared/db/knex.js';
import type { PlannedRow } from './plan.js';
import { TABLES, type Entity } from './rows.js';

/**
 * Two stored filters of one subscriber may swap pairs in a single import. Upserting row by row
 * would trip the (subscriber, event, eventType) unique index halfway, so filters whose pair
 * changes are first parked on a pair no real filter can have.
 */
export async function parkChangedEventFilters(trx: Tx, filters: readonly PlannedRow[]): Promise<void> {
  const moving = filters
    .filter(({ outcome, row, before }) => outcome === 'updated' && (row.event !== before?.event || row.event_type !== before?.event_type))
    .map(({ id }) => id);
  await parkEventFilters(trx, moving);
}

/** Writes the inserted and updated rows of one chunk inside the caller's transaction; returns how many. */
export async function writeChunk(trx: Tx, entity: Entity, planned: readonly PlannedRow[]): Promise<number> {
  const spec = TABLES[entity];
  const changed = planned.filter(({ outcome }) => outcome !== 'unchanged');
  // An inserted record was planned against the stored rows of this transaction: none has its id.
  const stored = changed.map(({ outcome }) => outcome !== 'inserted');
  await upsertRows(
    trx,
    spec.table,
    spec.idColumn,
    changed.map(({ row }) => row),
    spec.fields.length,
    stored,
  );
  return changed.length;
}
