import type { Knex } from 'knex';

// PostgreSQL hands out event ids when rows are inserted, not when their transactions commit, so
// a relay tailing `id > last` passes over rows whose transaction commits after a later id's.
// Each event row records the top-level transaction that wrote it (xid8; subtransactions report
// their parent), and the live relay tails by transaction against the current snapshot instead
// (src/repositories/webhook-event-tail.ts). Rows written before this migration keep NULL: they predate
// every relay's starting mark. SQLite has a single writer, so its ids already follow commits.
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  // Added empty first, then the default: existing rows are not rewritten.
  await knex.raw('alter table webhook_events add column xact_id xid8');
  await knex.raw('alter table webhook_events alter column xact_id set default pg_current_xact_id()');
  await knex.raw('create index webhook_events_xact_id_index on webhook_events (xact_id, id)');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw('drop index if exists webhook_events_xact_id_index');
  await knex.raw('alter table webhook_events drop column if exists xact_id');
}
