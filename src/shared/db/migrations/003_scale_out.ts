import type { Knex } from 'knex';

// Several instances on one PostgreSQL database.
//
// - webhook_attempts.instance_id: which instance made an attempt (its dispatcher's lease
//   owner), so the delivery log can tell a stuck instance from a failing receiver.
// - On PostgreSQL, a statement-level trigger NOTIFYs `shiftgate_events` when events are
//   written, whoever writes them (a request, `shiftgate import`, another instance). The
//   notification is sent on commit only, carries just the schema name (so several schemas in
//   one database do not wake each other), and identical ones in a transaction are merged, so
//   an import of thousands of records costs one notification and no extra statements.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.text('instance_id');
  });
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`
    create or replace function shiftgate_notify_events() returns trigger language plpgsql as $$
    begin
      perform pg_notify('shiftgate_events', tg_table_schema);
      return null;
    end
    $$`);
  await knex.raw(`
    create trigger webhook_events_notify after insert on webhook_events
    for each statement execute function shiftgate_notify_events()`);
  // A redelivery or a retry coming due is picked up by polling; new deliveries arrive with
  // their event, so one trigger on the events table is enough to wake the dispatchers too.
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('drop trigger if exists webhook_events_notify on webhook_events');
    await knex.raw('drop function if exists shiftgate_notify_events()');
  }
  await knex.schema.alterTable('webhook_attempts', (t) => t.dropColumn('instance_id'));
}
