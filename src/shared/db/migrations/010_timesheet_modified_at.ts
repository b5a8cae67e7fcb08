import type { Knex } from 'knex';

// When each timesheet entry was last written, for the list's modifiedSince filter: UTC ISO
// text at millisecond precision ("2026-12-01T08:00:00.000Z"), so text order is time order on
// both backends. Entries stored before this migration count as written when it runs: a client
// that noted an earlier time then reads them all once, instead of missing one. Every writer
// states the stamp (src/import/import-data.ts); the default only fills the existing rows.
// The index serves the filter's walk: the entries changed since a time, then by timesheetId.
export async function up(knex: Knex): Promise<void> {
  const migratedAt = new Date().toISOString();
  await knex.schema.alterTable('timesheets', (t) => {
    t.text('modified_at').notNullable().defaultTo(migratedAt);
  });
  await knex.schema.alterTable('timesheets', (t) => {
    t.index(['modified_at', 'timesheet_id'], 'timesheets_modified_at_timesheet_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('timesheets', (t) => {
    t.dropIndex(['modified_at', 'timesheet_id'], 'timesheets_modified_at_timesheet_id_index');
  });
  await knex.schema.alterTable('timesheets', (t) => {
    t.dropColumn('modified_at');
  });
}
