import { loadConfig } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/shared/db/knex.js';

export interface EventRow {
  id: number;
  event: string;
  eventType: string;
  companyId: number;
  recordId: number;
  occurredAt: number;
}

export interface DeliveryRow {
  eventId: number;
  subscriptionId: number;
  webhookId: string;
  state: string;
  attemptCount: number;
}

export interface OutboxSnapshot {
  events: EventRow[];
  deliveries: DeliveryRow[];
  /** subscription id → is_active, for the subscriptions asked about. */
  active: Map<number, boolean>;
  attempts: number;
}

/** Read-only access to the run's database: what was committed, and what is still owed. */
export class OutboxReader {
  private readonly db: Db;

  constructor(databaseUrl: string) {
    this.db = openDatabase({ ...loadConfig({ DATABASE_URL: databaseUrl }), poolMin: 0, poolMax: 1 });
  }

  async pending(): Promise<number> {
    const row = (await this.db('webhook_deliveries').where('state', 'pending').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  async maxEventId(): Promise<number> {
    const row = (await this.db('webhook_events').max({ id: 'id' }).first()) as { id: number | null } | undefined;
    return Number(row?.id ?? 0);
  }

  async snapshot(subscriptionIds: readonly number[]): Promise<OutboxSnapshot> {
    const events = (await this.db('webhook_events').select('id', 'event', 'event_type', 'company_id', 'record_id', 'occurred_at').orderBy('id')) as {
      id: number;
      event: string;
      event_type: string;
      company_id: number;
      record_id: number;
      occurred_at: string;
    }[];
    const deliveries = (await this.db('webhook_deliveries').select('event_id', 'subscription_id', 'webhook_id', 'state', 'attempt_count')) as {
      event_id: number;
      subscription_id: number;
      webhook_id: string;
      state: string;
      attempt_count: number;
    }[];
    const subscriptions = (await this.db('subscriptions').whereIn('id', [...subscriptionIds]).select('id', 'is_active')) as { id: number; is_active: unknown }[];
    const attempts = (await this.db('webhook_attempts').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return {
      events: events.map((e) => ({
        id: Number(e.id),
        event: e.event,
        eventType: e.event_type,
        companyId: Number(e.company_id),
        recordId: Number(e.record_id),
        occurredAt: Date.parse(e.occurred_at),
      })),
      deliveries: deliveries.map((d) => ({
        eventId: Number(d.event_id),
        subscriptionId: Number(d.subscription_id),
        webhookId: d.webhook_id,
        state: d.state,
        attemptCount: Number(d.attempt_count),
      })),
      active: new Map(subscriptions.map((s) => [Number(s.id), s.is_active === true || s.is_active === 1 || s.is_active === '1'])),
      attempts: Number(attempts?.n ?? 0),
    };
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}
