import type { Knex } from 'knex';
import * as initial from './001_initial.js';
import * as webhooks from './002_webhooks.js';
import * as scaleOut from './003_scale_out.js';
import * as repeatableUris from './004_repeatable_uris.js';
import * as deliveryRetention from './005_delivery_retention.js';
import * as liveEventOrder from './006_live_event_order.js';
import * as idempotencyKeys from './007_idempotency_keys.js';
import * as customerSiteLists from './008_customer_site_lists.js';
import * as timesheetLists from './009_timesheet_lists.js';
import * as timesheetModifiedAt from './010_timesheet_modified_at.js';
import * as rateLimits from './011_rate_limits.js';

// Migrations are listed in code (not discovered on disk) so they run the same from
// TypeScript sources, tests and any bundler, and in a fixed order.
const migrations: Record<string, Knex.Migration> = {
  '001_initial': initial,
  '002_webhooks': webhooks,
  '003_scale_out': scaleOut,
  '004_repeatable_uris': repeatableUris,
  '005_delivery_retention': deliveryRetention,
  '006_live_event_order': liveEventOrder,
  '007_idempotency_keys': idempotencyKeys,
  '008_customer_site_lists': customerSiteLists,
  '009_timesheet_lists': timesheetLists,
  '010_timesheet_modified_at': timesheetModifiedAt,
  '011_rate_limits': rateLimits,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};
