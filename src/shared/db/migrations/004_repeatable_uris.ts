import type { Knex } from 'knex';

// A URI may be subscribed to the same event filter more than once (each subscription keeps
// its own delivery stream and log), so the pair is no longer unique; matching subscriptions
// by filter still wants an index.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropUnique(['event_filter_id', 'uri']);
    t.index(['event_filter_id'], 'subscriptions_event_filter_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['event_filter_id'], 'subscriptions_event_filter_id_index');
    t.unique(['event_filter_id', 'uri']);
  });
}
