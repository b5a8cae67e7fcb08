import { isPostgres, type Db } from '../shared/db/knex.js';
import { yieldToEventLoop } from '../shared/yield-to-event-loop.js';
import { DAY_MS } from '../shared/clock.js';

/** Rows per step: each step is one short transaction, so writers never wait long behind it. */
const BATCH_SIZE = 500;
/** Steps per run and table; whatever is left waits for the next run. */
const MAX_BATCHES = 400;

export interface PruneResult {
  deliveries: number;
  attempts: number;
  events: number;
}

interface PruneOptions {
  batchSize?: number;
  /** Checked between batches: a stopping server does not wait for a whole run. */
  stopping?: () => boolean;
}

/**
 * Deletes webhook history older than `retentionDays`: finished deliveries (never pending ones)
 * with their attempts, then older events with no delivery left, in small batches, each its own
 * transaction, yielding to the event loop between them. Every delete re-checks its condition, so
 * a delivery redelivered meanwhile stays; on PostgreSQL a batch locks its deliveries first,
 * skipping rows others hold. An event's once-only key is copied to webhook_event_keys before the
 * event goes, so the license scheduler never emits it again.
 */
export async function pruneWebhookHistory(db: Db, now: Date, retentionDays: number, options: PruneOptions = {}): Promise<PruneResult> {
  const { batchSize = BATCH_SIZE, stopping = () => false } = options;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const result: PruneResult = { deliveries: 0, attempts: 0, events: 0 };

  for (const state of ['delivered', 'failed', 'cancelled'] as const) {
    for (let batch = 0; batch < MAX_BATCHES && !stopping(); batch++) {
      const ids = (await db('webhook_deliveries').where('state', state).where('completed_at', '<', cutoff).limit(batchSize).pluck('id')) as number[];
      if (ids.length === 0) break;
      const deleted = await db.transaction(async (trx): Promise<number> => {
        const finished = () => trx('webhook_deliveries').whereIn('id', ids).where('state', state).where('completed_at', '<', cutoff);
        // On SQLite the first statement (a write) takes the write lock for the whole batch.
        const owned = isPostgres(db) ? ((await finished().forUpdate().skipLocked().pluck('id')) as number[]) : ids;
        if (owned.length === 0) return 0;
        result.attempts += await trx('webhook_attempts').whereIn('delivery_id', finished().whereIn('id', owned).select('id')).del();
        return await finished().whereIn('id', owned).del();
      });
      result.deliveries += deleted;
      await yieldToEventLoop();
      // Nothing of the batch could go (taken by another instance, or requeued): leave it for the next run.
      if (deleted === 0 || ids.length < batchSize) break;
    }
  }

  for (let batch = 0; batch < MAX_BATCHES && !stopping(); batch++) {
    const rows = (await db('webhook_events as e')
      .where('e.occurred_at', '<', cutoff)
      .whereNotExists(db('webhook_deliveries as d').select(db.raw('1')).whereRaw('d.event_id = e.id'))
      .limit(batchSize)
      .select('e.id', 'e.dedupe_key', 'e.occurred_at')) as { id: number; dedupe_key: string | null; occurred_at: string }[];
    if (rows.length === 0) break;
    const keys = rows.filter((row) => row.dedupe_key !== null).map((row) => ({ dedupe_key: row.dedupe_key, created_at: row.occurred_at }));
    const deleted = await db.transaction(async (trx): Promise<number> => {
      // Usually there already; an event written before the keys table existed brings its own.
      if (keys.length > 0) await trx('webhook_event_keys').insert(keys).onConflict('dedupe_key').ignore();
      const ids = rows.map((row) => Number(row.id));
      return await trx('webhook_events')
        .whereIn('id', ids)
        .whereNotExists(trx('webhook_deliveries as d').select(trx.raw('1')).whereRaw('d.event_id = webhook_events.id'))
        .del();
    });
    result.events += deleted;
    await yieldToEventLoop();
    if (deleted === 0 || rows.length < batchSize) break;
  }
  return result;
}
