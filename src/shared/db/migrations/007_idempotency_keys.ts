import type { Knex } from 'knex';

// Idempotency keys of creates: per API key, the first successful answer to a key and a
// fingerprint of the request it came with, so a repeat gets that answer again. The unique
// index is what makes two concurrent requests with one key create one record.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.increments('id').primary();
    t.integer('api_key_id').notNullable().references('api_keys.id');
    t.text('idempotency_key').notNullable();
    // SHA-256 (hex) of the operation and its input, the key itself left out.
    t.text('request_hash').notNullable();
    // The result as first answered (JSON).
    t.text('response').notNullable();
    t.text('created_at').notNullable();
    t.unique(['api_key_id', 'idempotency_key']);
    // Pruning: the oldest rows first.
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('idempotency_keys');
}
