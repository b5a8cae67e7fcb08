import { isPostgres, type Db } from '../shared/db/knex.js';

function eventRow(row: Record<string, unknown>) {
  return {
    id: Number(row.id),
    event: String(row.event),
    event_type: String(row.event_type),
    company_id: Number(row.company_id),
    record_id: Number(row.record_id),
    occurred_at: String(row.occurred_at),
    payload: (row.payload as string | null) ?? null,
  };
}

/**
 * A reader that follows the events table as transactions commit: `read` returns up to `limit`
 * committed rows not returned before, in id order, each exactly once and none passed over; rows of
 * one record come in the order their transactions committed (writes to one record are serialised
 * by its row lock, and an event's id is drawn after that lock is taken). `skipToNow` takes the
 * starting point: rows committed before it are never returned.
 */
export type EventTail = IdTail | SnapshotTail;

/** The columns of an event row the live relay needs. */
export type EventRow = ReturnType<typeof eventRow>;

export function eventTailFor(db: Db): EventTail {
  return isPostgres(db) ? new SnapshotTail(db) : new IdTail(db);
}

/**
 * SQLite: one writer at a time holds the database's write lock from its first write until it
 * commits, and AUTOINCREMENT never hands out an id twice, so ids are drawn in commit order and a
 * committed row can never appear below rows already read: `id > last` is exact.
 */
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
      .select('id', 'event', 'event_type', 'company_id', 'record_id', 'occurred_at', 'payload')) as Record<string, unknown>[];
    const events = rows.map(eventRow);
    this.lastId = events.at(-1)?.id ?? this.lastId;
    return events;
  }
}

/** Past this many transactions tracked above the floor, new ones wait until it moves: bounded, delayed, never lost. */
const MAX_TRACKED_TRANSACTIONS = 10_000;

/**
 * PostgreSQL: ids come from a sequence at insert, so transactions commit out of id order and
 * `id > last` would pass over a row whose transaction was still open when a higher id was read.
 * Every event row carries its transaction's id (migration 006_live_event_order), and the position
 * is kept in transaction terms: the floor (the snapshot's xmin at a read that returned everything
 * it found: every transaction below it had finished, all its rows returned), and for each
 * transaction at or above it already read from, the highest id returned.
 *
 * A read returns, in id order, every committed row at or above the floor beyond its transaction's
 * highest returned id. A transaction's rows become visible all at once, when it commits, so each
 * is returned once, by the first read after that, and none waits behind a long transaction.
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
    const result = await this.db.raw<{ rows: { xmin: string; xact: string | null; max_id: number | null }[] }>(
      `select s.xmin::text as xmin, w.xact_id::text as xact, max(w.id) as max_id
         from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) s
         left join webhook_events w on w.xact_id >= s.xmin
        group by s.xmin, w.xact_id`,
    );
    const rows = result.rows;
    this.transactions.clear();
    for (const row of rows) if (row.xact !== null) this.transactions.set(row.xact, Number(row.max_id));
    this.floor = BigInt(rows[0]?.xmin ?? '0');
  }

  async read(limit: number): Promise<EventRow[]> {
    if (this.floor === null) await this.skipToNow();
    const xacts = [...this.transactions.keys()];
    const ids = xacts.map((x) => this.transactions.get(x) ?? 0);
    const admitNew = this.transactions.size < this.maxTracked;
    const result = await this.db.raw<{ rows: (Record<string, unknown> & { snapshot_xmin: string; xact: string | null })[] }>(
      `select s.xmin::text as snapshot_xmin, e.*
         from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) s
         left join lateral (
           select w.id, w.event, w.event_type, w.company_id, w.record_id, w.occurred_at, w.payload, w.xact_id::text as xact
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
    const rows = result.rows.filter((row) => row.id !== null && row.id !== undefined);
    for (const row of rows) this.transactions.set(String(row.xact), Number(row.id));
    if (rows.length < limit) {
      // Everything visible was returned, and whatever commits later belongs to a transaction at
      // or above this snapshot's xmin: the floor moves up, and what lies below it is forgotten.
      const xmin = BigInt(result.rows[0]?.snapshot_xmin ?? '0');
      this.floor = xmin;
      for (const xact of this.transactions.keys()) if (BigInt(xact) < xmin) this.transactions.delete(xact);
    }
    return rows.map(eventRow);
  }
}
