import { isPostgres, type Db } from '../shared/db/knex.js';
import type { EventRow } from './webhook-events.js';

/**
 * A reader that follows the events table as transactions commit: each committed row is returned
 * by exactly one `read` (up to `limit` rows, in id order), and rows of one record come in commit
 * order (writes to one record are serialised by its row lock, and an event's id is drawn after
 * that lock is taken). `skipToNow` takes the starting point: rows committed so far are never returned.
 */
export type EventTail = IdTail | SnapshotTail;

export function eventTailFor(db: Db): EventTail {
  return isPostgres(db) ? new SnapshotTail(db) : new IdTail(db);
}

/** SQLite: one writer at a time holds the write lock until it commits, so ids are drawn in commit order and `id > last` is exact. */
export class IdTail {
  private lastId: number | null = null;

  constructor(private readonly db: Db) {}

  get started(): boolean {
    return this.lastId !== null;
  }

  async skipToNow(): Promise<void> {
    const row = (await this.db('webhook_events').max('id as id').first()) as { id: number | null } | undefined;
    this.lastId = Number(row?.id ?? 0);
  }

  async read(limit: number): Promise<EventRow[]> {
    const rows = (await this.db('webhook_events')
      .where('id', '>', this.lastId ?? 0)
      .orderBy('id')
      .limit(limit)
      .select('id as event_id', 'event', 'event_type', 'company_id', 'record_id', 'occurred_at', 'payload')) as EventRow[];
    this.lastId = rows.at(-1)?.event_id ?? this.lastId;
    return rows;
  }
}

/** Past this many transactions tracked above the floor, rows of further ones wait until the floor moves: bounded, only delayed. */
const MAX_TRACKED_TRANSACTIONS = 10_000;

/**
 * PostgreSQL: transactions commit out of id order, so each event row carries the id of the
 * transaction that wrote it (migration 006_live_event_order) and the position is kept in those
 * terms: the floor (the snapshot's xmin at a read that returned everything it found) and, for each
 * transaction above it already read from, the highest id returned. A transaction's rows become
 * visible at once, so each is returned by the first read after its commit, and events are not held
 * back behind a long transaction (an import) still running.
 */
export class SnapshotTail {
  private floor: bigint | null = null;
  private readonly transactions = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly maxTracked = MAX_TRACKED_TRANSACTIONS,
  ) {}

  get started(): boolean {
    return this.floor !== null;
  }

  async skipToNow(): Promise<void> {
    // One statement, so the xmin and the rows come from the same snapshot.
    const { rows } = await this.db.raw<{ rows: { xmin: string; xact: string | null; max_id: number | null }[] }>(
      `select s.xmin::text as xmin, w.xact_id::text as xact, max(w.id) as max_id
         from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) s
         left join webhook_events w on w.xact_id >= s.xmin
        group by s.xmin, w.xact_id`,
    );
    this.transactions.clear();
    for (const row of rows) if (row.xact !== null) this.transactions.set(row.xact, Number(row.max_id));
    this.floor = BigInt(rows[0]?.xmin ?? '0');
  }

  async read(limit: number): Promise<EventRow[]> {
    if (this.floor === null) await this.skipToNow();
    const xacts = [...this.transactions.keys()];
    const ids = [...this.transactions.values()];
    const admitNew = this.transactions.size < this.maxTracked;
    const result = await this.db.raw<{ rows: (EventRow & { snapshot_xmin: string; xact: string | null })[] }>(
      `select s.xmin::text as snapshot_xmin, e.*
         from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) s
         left join lateral (
           select w.id as event_id, w.event, w.event_type, w.company_id, w.record_id, w.occurred_at, w.payload, w.xact_id::text as xact
             from webhook_events w
             left join unnest(?::xid8[], ?::bigint[]) as t(xact_id, id) on t.xact_id = w.xact_id
            where w.xact_id >= ?::xid8
              and (t.id is null or w.id > t.id)
              and (?::boolean or t.xact_id is not null or w.xact_id < s.xmin)
            order by w.id
            limit ?
         ) e on true`,
      [xacts, ids, (this.floor ?? 0n).toString(), admitNew, limit],
    );
    const rows = result.rows.filter((row) => row.event_id != null);
    for (const row of rows) this.transactions.set(String(row.xact), row.event_id);
    if (rows.length < limit) {
      // Everything visible was returned, and whatever commits later belongs to a transaction at
      // or above this snapshot's xmin: the floor moves up, and what lies below it is forgotten.
      const xmin = BigInt(result.rows[0]?.snapshot_xmin ?? '0');
      this.floor = xmin;
      for (const xact of this.transactions.keys()) if (BigInt(xact) < xmin) this.transactions.delete(xact);
    }
    return rows;
  }
}
