import type { Knex } from 'knex';

// The timesheet and staff lists walk their key (timesheet_id, staff id) in order under a filter:
// each index leads with the filtered column and ends with the key, so a page is one range scan
// that stops after pageSize + 1 rows (docs/rest-api.md, List filters and their indexes).
const INDEXES: { table: string; columns: string[]; name: string }[] = [
  { table: 'timesheets', columns: ['site_id', 'timesheet_id'], name: 'timesheets_site_id_timesheet_id_index' },
  { table: 'timesheets', columns: ['employee_id', 'timesheet_id'], name: 'timesheets_employee_id_timesheet_id_index' },
  { table: 'timesheets', columns: ['status', 'timesheet_id'], name: 'timesheets_status_timesheet_id_index' },
  { table: 'timesheets', columns: ['scheduled_start_time', 'timesheet_id'], name: 'timesheets_scheduled_start_time_timesheet_id_index' },
  { table: 'sites', columns: ['customer_id', 'id'], name: 'sites_customer_id_id_index' },
  { table: 'customers', columns: ['company_id', 'id'], name: 'customers_company_id_id_index' },
  { table: 'staff', columns: ['company_id', 'id'], name: 'staff_company_id_id_index' },
  { table: 'staff', columns: ['company_id', 'staff_id', 'id'], name: 'staff_company_id_staff_id_id_index' },
  { table: 'staff', columns: ['company_id', 'employee_reference_number', 'id'], name: 'staff_company_id_employee_reference_number_id_index' },
  { table: 'staff', columns: ['company_id', 'email', 'id'], name: 'staff_company_id_email_id_index' },
];

export async function up(knex: Knex): Promise<void> {
  for (const { table, columns, name } of INDEXES) {
    await knex.schema.alterTable(table, (t) => {
      t.index(columns, name);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, columns, name } of [...INDEXES].reverse()) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
    });
  }
}
