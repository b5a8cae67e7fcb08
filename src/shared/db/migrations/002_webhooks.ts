import type { Knex } from 'knex';

// The transactional outbox. An event row and its delivery rows are written in the same
// transaction as the data change, so a crash can lose neither; the dispatcher only ever
// reads and updates these rows. Times are ISO 8601 UTC text, like the rest of the schema.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_events', (t) => {
    t.increments('id').primary();
    t.text('event').notNullable();
    t.text('event_type').notNullable();
    t.integer('company_id').notNullable().references('companies.id');
    t.integer('record_id').notNullable();
    t.text('occurred_at').notNullable();
    // Set for events that must happen at most once (license expiring/expired per expiry date):
    // a second scheduler instance's insert hits the unique index and becomes a no-op.
    t.text('dedupe_key').unique();
    // The body, rendered once on first send so every attempt and every subscription sees the same bytes.
    t.text('payload');
    t.index(['company_id', 'id']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.increments('id').primary();
    t.integer('event_id').notNullable().references('webhook_events.id');
    t.integer('subscription_id').notNullable().references('subscriptions.id');
    // The webhook-id header: one per (event, subscription), the same on every attempt.
    t.text('webhook_id').notNullable().unique();
    t.text('state').notNullable(); // pending | delivered | failed
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.text('next_attempt_at');
    t.text('lease_owner');
    t.text('lease_expires_at');
    t.text('created_at').notNullable();
    t.text('completed_at');
    t.unique(['event_id', 'subscription_id']);
    // The dispatcher's scan: pending rows by due time.
    t.index(['state', 'next_attempt_at']);
    // The delivery log: one subscription's deliveries, newest first.
    t.index(['subscription_id', 'id']);
  });
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.increments('id').primary();
    t.integer('delivery_id').notNullable().references('webhook_deliveries.id');
    t.text('attempted_at').notNullable();
    t.integer('http_status');
    t.integer('duration_ms').notNullable();
    t.text('error');
    t.index(['delivery_id', 'id']);
  });
  await knex.schema.alterTable('subscribers', (t) => {
    // During a rotation the old secret keeps signing too, until it expires.
    t.text('previous_signing_secret');
    t.text('previous_secret_expires_at');
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    // When the current run of failures began; cleared by any success. Drives auto-disable.
    t.text('failing_since');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => t.dropColumn('failing_since'));
  await knex.schema.alterTable('subscribers', (t) => {
    t.dropColumn('previous_signing_secret');
    t.dropColumn('previous_secret_expires_at');
  });
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_events');
}
