import type { Knex } from 'knex';

// The table RATE_LIMIT_STORE=postgres keeps its budgets in, with the columns rate-limiter-flexible
// reads and writes. The library would create it on first use, but its three counters are built
// together at start-up and PostgreSQL refuses concurrent CREATE TABLEs of one name ("type already
// exists"), which the library leaves as an unhandled rejection. A migration creates it once, before
// any counter exists. SQLite never uses the store (config refuses it), so it gets no table.
// An instance that ran the library's own creation already has the same table.
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  if (await knex.schema.hasTable('rate_limits')) return;
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.schema.dropTableIfExists('rate_limits');
}
