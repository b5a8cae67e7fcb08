import type { Knex } from 'knex';

// A deleted subscription keeps its row, marked by deleted_at: its deliveries (cancelled or
// finished) and their attempts still refer to it until retention prunes them, and every read
// of subscriptions leaves marked rows out.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.text('deleted_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropColumn('deleted_at');
  });
}
