import type { WebhookConfig } from '../config.js';
import type { Execute } from '../graphql/execute.js';
import { eventTailFor, type EventTail } from '../repositories/webhook-event-tail.js';
import { PgEventNotifications } from '../repositories/webhook-event-notifications.js';
import { pruneWebhookHistory, type PruneResult } from '../repositories/webhook-history.js';
import { postgresConnectionString, type Db } from '../shared/db/knex.js';
import { describeError } from '../shared/observability/error-description.js';
import { scanLicensesOnce } from '../webhooks/license-events.js';
import type { LiveEventBus } from '../webhooks/live-bus.js';
import type { WebhookServices } from '../webhooks/services.js';
import { Dispatcher } from './dispatcher.js';
import { PayloadRenderer } from './payload-renderer.js';
import { Periodic } from '../shared/periodic.js';

/** Scans licenses for due events at start-up and then every interval. */
export class LicenseScheduler extends Periodic {
  constructor(
    private readonly db: Db,
    intervalSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    super('license scheduler', intervalSeconds * 1000);
  }

  protected tick(): Promise<unknown> {
    return scanLicensesOnce(this.db, new Date(this.now()));
  }
}

const NOTHING_PRUNED: PruneResult = { deliveries: 0, attempts: 0, events: 0 };

/** Prunes webhook history in the background: at start-up and then every hour. A retention of 0 days keeps everything. */
export class RetentionWorker extends Periodic {
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly retentionDays: number,
    private readonly now: () => number = Date.now,
  ) {
    super('webhook retention', 3600 * 1000);
  }

  override start(): void {
    if (this.retentionDays === 0) return;
    this.stopping = false;
    super.start();
  }

  /** Stops the schedule and waits for the batch in progress (a run stops between batches). */
  override async stop(): Promise<void> {
    this.stopping = true;
    await super.stop();
    this.stopping = false;
  }

  /** One pruning run on the worker's clock; a failure is logged and the next run tries again. */
  runOnce(): Promise<PruneResult> {
    return this.tick().catch((error: unknown) => {
      console.error('webhook retention:', describeError(error));
      return NOTHING_PRUNED;
    });
  }

  protected async tick(): Promise<PruneResult> {
    if (this.retentionDays === 0) return NOTHING_PRUNED;
    return pruneWebhookHistory(this.db, new Date(this.now()), this.retentionDays, { stopping: () => this.stopping });
  }
}

/** Events read per query; a full batch is followed at once by the next. */
const RELAY_BATCH = 200;

/**
 * Feeds the live bus from the events table, so events written by any process (`shiftgate
 * import`, another instance) reach this instance's live clients too, once committed.
 */
export class LiveRelay extends Periodic {
  private readonly tail: EventTail;

  constructor(
    db: Db,
    private readonly bus: LiveEventBus,
    private readonly renderer: PayloadRenderer,
    intervalMs: number,
  ) {
    super('live events', intervalMs);
    this.tail = eventTailFor(db);
  }

  protected async tick(): Promise<boolean> {
    if (!this.tail.started || !this.bus.listening) {
      // Nobody listening: just move the mark, so a new client starts from "now". The first run
      // takes the mark at start, so a client subscribing before the first poll misses nothing.
      await this.tail.skipToNow();
      return false;
    }
    const rows = await this.tail.read(RELAY_BATCH);
    for (const row of rows) {
      let payload: string;
      try {
        payload = await this.renderer.payloadOf(row);
      } catch (error) {
        // One event that cannot be rendered must not hold back the ones behind it.
        console.error('live events:', describeError(error));
        continue;
      }
      this.bus.publish({ companyId: row.company_id, event: row.event, eventType: row.event_type, payload });
    }
    return rows.length === RELAY_BATCH;
  }
}

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
    this.notifications = connectionString
      ? new PgEventNotifications(connectionString, () => {
          this.relay.wake();
          this.dispatcher.wake();
        })
      : null;
  }

  start(): void {
    for (const worker of [this.dispatcher, this.scheduler, this.retention, this.relay, this.notifications]) worker?.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.dispatcher, this.scheduler, this.retention, this.relay, this.notifications].map((worker) => worker?.stop()));
  }
}
