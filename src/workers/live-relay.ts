import type { Db } from '../shared/db/knex.js';
import { eventTailFor, type EventTail } from '../repositories/webhook-event-tail.js';
import type { LiveEventBus } from '../webhooks/live-bus.js';
import type { PayloadRenderer } from './payload-renderer.js';
import { describeError } from '../shared/observability/error-description.js';
import { Periodic } from './periodic.js';

/** Rows read per query; a full batch is followed at once by the next. */
const BATCH = 200;

/**
 * Feeds the live bus from the events table. Tailing the table (rather than publishing from
 * the writer) means events written by any process — `shiftgate import`, another instance —
 * reach this instance's live clients too, and only after their transaction committed. A wake
 * (a PostgreSQL notification) reads at once rather than at the next poll.
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
    const rows = await this.tail.read(BATCH);
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
    return rows.length === BATCH;
  }
}
