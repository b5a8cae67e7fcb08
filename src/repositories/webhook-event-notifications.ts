import type pg from 'pg';
import { pgDriver } from '../shared/db/pg-module.js';
import { Periodic } from '../shared/periodic.js';

const EVENTS_CHANNEL = 'shiftgate_events';
/** While not listening, another connection is tried this often (a lost one is tried again at once). */
const RETRY_MS = 5000;

/**
 * LISTENs on PostgreSQL, on a connection of its own, for newly committed webhook events (migration
 * 003: a trigger NOTIFYs with the table's schema) and calls `onEvents`, so every instance's relay
 * and dispatcher react at once. The events table stays the source of truth and polling the fallback.
 */
export class PgEventNotifications extends Periodic {
  private client: pg.Client | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly onEvents: () => void,
  ) {
    super('event notifications', RETRY_MS);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  protected async tick(): Promise<void> {
    if (this.client) return;
    const client = new (pgDriver().Client)({ connectionString: this.connectionString });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.wake();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      // Several shiftgate databases may share one server (one schema each); only ours counts.
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      const schema = rows[0]?.schema;
      await client.query(`listen ${EVENTS_CHANNEL}`);
      client.on('notification', (message) => {
        if (message.channel === EVENTS_CHANNEL && message.payload === schema) this.onEvents();
      });
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (!this.started) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Anything committed while we were not listening is picked up now.
    this.onEvents();
  }
}
