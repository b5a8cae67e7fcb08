import type { Knex } from 'knex';
import { chunk, ID_CHUNK } from './existing.js';
import type { ImportPlan } from './plan.js';
import { ENTITIES, TABLES } from './rows.js';

// SQLite allows 32,766 bound parameters per statement, PostgreSQL 65,535; stay well under both.
const MAX_PARAMETERS = 30_000;
// knex writes a multi-row SQLite insert as a compound SELECT, which SQLite caps at 500 terms.
const MAX_ROWS_PER_INSERT = 250;

/**
 * Two stored filters of one subscriber may swap pairs in a single import. Upserting row by row
 * would trip the (subscriber, event, eventType) unique index halfway, so filters whose pair
 * changes are first parked on a pair no real filter can have.
 */
async function parkChangedEventFilters(trx: Knex.Transaction, plan: ImportPlan): Promise<void> {
  const moving = plan.rows.eventFilters
    .filter(({ outcome, row, before }) => outcome === 'updated' && (row.event !== before?.event || row.event_type !== before?.event_type))
    .map(({ id }) => id);
  for (const part of chunk(moving, ID_CHUNK)) {
    await trx('event_filters')
      .whereIn('id', part)
      .update({ event: trx.raw(`? || CAST(id AS TEXT)`, ['\u001fshiftgate-import:']) });
  }
}

/** Writes the inserted and updated rows, parents before children, inside the caller's transaction. */
export async function writePlan(trx: Knex.Transaction, plan: ImportPlan): Promise<void> {
  await parkChangedEventFilters(trx, plan);
  for (const entity of ENTITIES) {
    const spec = TABLES[entity];
    const rows = plan.rows[entity].filter(({ outcome }) => outcome !== 'unchanged').map(({ row }) => row);
    const perStatement = Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / spec.fields.length));
    for (const part of chunk(rows, perStatement)) {
      await trx(spec.table).insert(part).onConflict(spec.idColumn).merge();
    }
  }
}
