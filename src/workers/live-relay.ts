import type { Db } from '../shared/db/knex.js';
import { eventTailFor, type EventTail } from '../repositories/webhook-event-tail.js';
import type { LiveEventBus } from '../webhooks/live-bus.js';
import type { PayloadRenderer } from './payload-renderer.js';
import { describeError } from '../shared/observability/error-description.js';

/** Rows read per query; a full batch is followed at once by the next. */
const BATCH = 200;

/**
 * Feeds the live bus from the events table. Tailing the table (rather than publishing from
 * the writer) means events written by any process — `shiftgate import`, another instance —
 * reach this instance's live clients too, and only after their transaction committed. How the
 * table is followed without passing over a row that commits late is the tail's business
 * (src/repositories/webhook-event-tail.ts).
 */
export class LiveRelay {
  private readonly tail: EventTail;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    db: Db,
    private readonly bus: LiveEventBus,
    private readonly renderer: PayloadRenderer,
    private readonly intervalMs: number,
  ) {
    this.tail = eventTailFor(db);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
    // The starting mark is taken now, so a client subscribing before the first poll misses nothing.
    this.run();
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
      .catch((error: unknown) => console.error('live events:', describeError(error)))
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
    if (!this.tail.started || !this.bus.listening) {
      // Nobody listening: just move the mark, so a new client starts from "now".
      await this.tail.skipToNow();
      return;
    }
    const rows = await this.tail.read(BATCH);
    for (const row of rows) {
      const event = {
        eventId: row.id,
        event: row.event,
        eventType: row.event_type,
        companyId: row.company_id,
        recordId: row.record_id,
        occurredAt: row.occurred_at,
      };
      let payload: string;
      try {
        payload = await this.renderer.payloadOf(event, row.payload);
      } catch (error) {
        // One event that cannot be rendered must not hold back the ones behind it.
        console.error('live events:', describeError(error));
        continue;
      }
      this.bus.publish({ companyId: event.companyId, event: event.event, eventType: event.eventType, payload });
    }
    if (rows.length === BATCH) this.again = true;
  }
}
