import type { WebhookConfig } from '../config.js';
import type { Execute } from '../graphql/execute.js';
import { PgEventNotifications } from '../repositories/webhook-event-notifications.js';
import { postgresConnectionString, type Db } from '../shared/db/knex.js';
import type { WebhookServices } from '../webhooks/services.js';
import { Dispatcher } from './dispatcher.js';
import { LicenseScheduler } from './license-scheduler.js';
import { LiveRelay } from './live-relay.js';
import { PayloadRenderer } from './payload-renderer.js';
import { RetentionWorker } from './retention.js';

/** The background side of webhooks in the server process: dispatcher, license scheduler, retention, live relay. */
export class WebhookWorkers {
  readonly dispatcher: Dispatcher;
  readonly scheduler: LicenseScheduler;
  readonly retention: RetentionWorker;
  readonly relay: LiveRelay;
  /** PostgreSQL only: wakes the relay and the dispatcher when any instance commits events. */
  readonly notifications: PgEventNotifications | null;

  constructor(options: { db: Db; execute: Execute; config: WebhookConfig; services: WebhookServices; now?: () => number }) {
    const { db, execute, config, services } = options;
    const now = options.now ?? Date.now;
    const renderer = new PayloadRenderer(db, execute);
    this.dispatcher = new Dispatcher({ db, config, guard: services.guard, renderer, now });
    this.scheduler = new LicenseScheduler(db, config.licenseScanIntervalSeconds, now);
    this.retention = new RetentionWorker(db, config.retentionDays, now);
    this.relay = new LiveRelay(db, services.bus, renderer, config.pollIntervalMs);
    const connectionString = postgresConnectionString(db);
    this.notifications =
      connectionString
        ? new PgEventNotifications(connectionString, () => {
            this.relay.wake();
            this.dispatcher.wake();
          })
        : null;
  }

  start(): void {
    this.dispatcher.start();
    this.scheduler.start();
    this.retention.start();
    this.relay.start();
    this.notifications?.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.dispatcher.stop(), this.scheduler.stop(), this.retention.stop(), this.relay.stop(), this.notifications?.stop()]);
  }
}
