import type { Db } from '../db/knex.js';
import type { LiveEventBus } from './live-bus.js';
import type { PayloadRenderer } from './render.js';

/**
 * Feeds the live bus from the events table. Tailing the table (rather than publishing from
 * the writer) means events written by any process — `shiftgate import`, another instance —
 * reach this instance's live clients too, and only after their transaction committed.
 */
export class LiveRelay {
  private lastId: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly bus: LiveEventBus,
    private readonly renderer: PayloadRenderer,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  /**
   * Events were committed (a PostgreSQL notification): read them now rather than at the next
   * poll. If a read is in flight, one more follows it, so nothing committed meanwhile waits.
   */
  wake(): void {
    if (!this.timer) return;
    if (this.running) this.again = true;
    else this.run();
  }

  private run(): void {
    if (this.running) return;
    this.again = false;
    this.running = this.tick()
      .catch((error: unknown) => console.error('live events:', error instanceof Error ? error.message : error))
      .finally(() => {
        this.running = null;
        if (this.again && this.timer) this.run();
      });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  async tick(): Promise<void> {
    if (this.lastId === null || !this.bus.listening) {
      // Nobody listening: just move the mark, so a new client starts from "now".
      const row = (await this.db('webhook_events').max('id as id').first()) as { id: number | null } | undefined;
      this.lastId = Number(row?.id ?? 0);
      return;
    }
    const rows = (await this.db('webhook_events')
      .where('id', '>', this.lastId)
      .orderBy('id')
      .limit(200)) as Record<string, unknown>[];
    for (const row of rows) {
      this.lastId = Number(row.id);
      const event = {
        eventId: Number(row.id),
        event: String(row.event),
        eventType: String(row.event_type),
        companyId: Number(row.company_id),
        recordId: Number(row.record_id),
        occurredAt: String(row.occurred_at),
      };
      const payload = await this.renderer.payloadOf(event, (row.payload as string | null) ?? null);
      this.bus.publish({ companyId: event.companyId, event: event.event, eventType: event.eventType, payload });
    }
  }
}
