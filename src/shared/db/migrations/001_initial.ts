import type { Knex } from 'knex';

// Date-times are stored as ISO 8601 UTC text ("…T…Z") on both backends, so ordering and
// the API's output are byte-identical whichever database is behind it. Generic objects
// (coordinates, notes, allowances …) are stored as JSON text for the same reason.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('companies', (t) => {
    t.integer('id').primary();
    t.text('name').notNullable();
  });
  await knex.schema.createTable('customers', (t) => {
    t.integer('id').primary();
    t.integer('company_id').notNullable().references('companies.id');
    t.text('name').notNullable();
    t.index(['company_id']);
  });
  await knex.schema.createTable('sites', (t) => {
    t.integer('id').primary();
    t.integer('customer_id').notNullable().references('customers.id');
    t.text('name').notNullable();
    t.index(['customer_id']);
  });
  await knex.schema.createTable('staff', (t) => {
    t.integer('id').primary();
    t.integer('company_id').notNullable().references('companies.id');
    t.text('staff_id');
    t.text('first_name');
    t.text('last_name');
    t.text('employee_reference_number');
    t.text('email');
    t.text('mobile');
    t.text('subcontractor_company');
    t.index(['company_id']);
  });
  await knex.schema.createTable('licenses', (t) => {
    t.integer('security_license_id').primary();
    t.integer('employee_id').notNullable().references('staff.id');
    t.text('state');
    t.text('license_number');
    t.text('status');
    t.text('expiry_date');
    t.integer('reminder');
    t.boolean('critical');
    t.text('attachment_link');
    t.text('licence_sector');
    t.boolean('is_invalid_license');
    // Keyset pagination: one index walk per page, with or without the number filter.
    t.index(['employee_id', 'security_license_id']);
    t.index(['employee_id', 'license_number', 'security_license_id']);
  });
  await knex.schema.createTable('timesheets', (t) => {
    t.integer('timesheet_id').primary();
    t.integer('site_id').notNullable().references('sites.id');
    t.integer('employee_id').notNullable().references('staff.id');
    t.text('entry_type');
    t.text('position');
    t.text('service');
    t.text('paygroup');
    for (const column of TIMESHEET_TIME_COLUMNS) t.text(column);
    t.text('clock_in_coordinates');
    t.text('clock_out_coordinates');
    t.text('staff_submitted_timesheet_times');
    t.integer('pay_break_time');
    t.integer('invoice_break_time');
    t.text('notes');
    t.text('allowances');
    t.text('status');
    t.text('approved_by');
    t.text('customer_approval_status');
    t.text('customer_approver');
    t.boolean('lock');
    t.text('schedule_notes');
    t.index(['site_id']);
    t.index(['employee_id']);
  });
  await knex.schema.createTable('subscribers', (t) => {
    t.integer('id').primary();
    t.integer('company_id').notNullable().references('companies.id');
    t.text('name').notNullable();
    t.text('signing_secret').notNullable();
    t.index(['company_id']);
  });
  await knex.schema.createTable('event_filters', (t) => {
    t.integer('id').primary();
    t.integer('subscriber_id').notNullable().references('subscribers.id');
    t.text('event').notNullable();
    t.text('event_type').notNullable();
    t.unique(['subscriber_id', 'event', 'event_type']);
  });
  await knex.schema.createTable('subscriptions', (t) => {
    t.increments('id').primary();
    t.integer('subscriber_id').notNullable().references('subscribers.id');
    t.integer('event_filter_id').notNullable().references('event_filters.id');
    t.text('uri').notNullable();
    t.boolean('is_active').notNullable();
    t.text('created_date_time').notNullable();
    t.text('modified_date_time').notNullable();
    t.unique(['event_filter_id', 'uri']);
    t.index(['subscriber_id', 'id']);
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.increments('id').primary();
    // SHA-256 of the key: keys are high-entropy random strings, so a fast hash is enough
    // and lets a key be found by its hash in one indexed read.
    t.text('key_hash').notNullable().unique();
    t.text('key_prefix').notNullable();
    t.text('key_type').notNullable();
    t.integer('company_id').notNullable().references('companies.id');
    t.text('customer_ids').notNullable();
    t.text('site_ids').notNullable();
    t.text('name');
    t.text('created_at').notNullable();
    t.text('revoked_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'api_keys',
    'subscriptions',
    'event_filters',
    'subscribers',
    'timesheets',
    'licenses',
    'staff',
    'sites',
    'customers',
    'companies',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}

export const TIMESHEET_TIME_COLUMNS = [
  'scheduled_start_time',
  'scheduled_end_time',
  'timeclock_start_time',
  'timeclock_break_start_time',
  'timeclock_break_end_time',
  'timeclock_end_time',
  'pay_start_time',
  'pay_end_time',
  'invoice_start_time',
  'invoice_end_time',
  'approved_date_time',
  'customer_approved_date_time',
] as const;
