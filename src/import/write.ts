import { parkEventFilters, upsertRows } from '../repositories/import-tables.js';
import type { Tx } from '../shared/db/knex.js';
import type { ImportPlan } from './plan.js';
import type { ImportProgressSink } from './progress.js';
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

/** Rows handed to the repository at once: small enough that progress moves on a large file. */
const ROWS_PER_PROGRESS_STEP = 1000;

/** Writes the inserted and updated rows, parents before children, inside the caller's transaction. */
export async function writePlan(trx: Tx, plan: ImportPlan, report: ImportProgressSink = () => {}): Promise<void> {
  await parkChangedEventFilters(trx, plan);
  const changed = ENTITIES.map((entity) => ({ entity, rows: plan.rows[entity].filter(({ outcome }) => outcome !== 'unchanged').map(({ row }) => row) }));
  const total = changed.reduce((sum, { rows }) => sum + rows.length, 0);
  let written = 0;
  for (const { entity, rows } of changed) {
    const spec = TABLES[entity];
    for (let start = 0; start < rows.length; start += ROWS_PER_PROGRESS_STEP) {
      const part = rows.slice(start, start + ROWS_PER_PROGRESS_STEP);
      await upsertRows(trx, spec.table, spec.idColumn, part, spec.fields.length);
      written += part.length;
      report({ stage: 'written', done: written, total });
    }
  }
}
