import type { Knex } from 'knex';

// Webhook history is pruned after WEBHOOK_RETENTION_DAYS.
//
// - webhook_event_keys: the once-only keys of events that may happen only once (license
//   expiring/expired per expiry date). They used to live only on the event row, so deleting an
//   old event would let the license scheduler emit it again; here they outlive the events.
//   Existing keys are copied over.
// - Indexes for the pruner's scans: finished deliveries by completion time, events by age.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_event_keys', (t) => {
    t.text('dedupe_key').primary();
    t.text('created_at').notNullable();
  });
  await knex.raw(
    'insert into webhook_event_keys (dedupe_key, created_at) select dedupe_key, occurred_at from webhook_events where dedupe_key is not null',
  );
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['state', 'completed_at'], 'webhook_deliveries_state_completed_at_index');
  });
  await knex.schema.alterTable('webhook_events', (t) => {
    t.index(['occurred_at'], 'webhook_events_occurred_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_events', (t) => t.dropIndex(['occurred_at'], 'webhook_events_occurred_at_index'));
  await knex.schema.alterTable('webhook_deliveries', (t) => t.dropIndex(['state', 'completed_at'], 'webhook_deliveries_state_completed_at_index'));
  await knex.schema.dropTableIfExists('webhook_event_keys');
}
