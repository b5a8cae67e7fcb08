import type pg from 'pg';
import { pgDriver } from '../shared/db/pg-module.js';
import { describeError } from '../shared/observability/error-description.js';

const EVENTS_CHANNEL = 'shiftgate_events';

/**
 * LISTENs on PostgreSQL for newly committed webhook events (migration 003: a trigger on
 * webhook_events NOTIFYs with the table's schema) and calls `onEvents`, so every instance's live
 * relay and dispatcher react at once instead of at their next poll. It carries no data (the
 * events table stays the source of truth) and polling remains the fallback, so a lost
 * connection only costs latency. A LISTEN belongs to a session: one dedicated connection, outside the knex pool.
 */
export class PgEventNotifications {
  private client: pg.Client | null = null;
  private stopped = true;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = 500;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly onEvents: () => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connecting = this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.connecting;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new (pgDriver().Client)({ connectionString: this.connectionString });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      // Several shiftgate databases may share one server (one schema each); only ours counts.
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      const schema = rows[0]?.schema;
      await client.query(`listen ${EVENTS_CHANNEL}`);
      client.on('notification', (message) => {
        if (message.channel === EVENTS_CHANNEL && message.payload === schema) this.onEvents();
      });
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.retryMs = 500;
      // Anything committed while we were not listening is picked up now.
      this.onEvents();
    } catch (error) {
      if (!this.stopped) console.error('event notifications:', describeError(error));
      await client.end().catch(() => undefined);
      this.reconnect(client);
    } finally {
      this.connecting = null;
    }
  }

  private reconnect(failed: pg.Client): void {
    if (this.stopped || this.retryTimer || (this.client !== null && this.client !== failed)) return;
    if (this.client === failed) this.client = null;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.connecting = this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }
}
