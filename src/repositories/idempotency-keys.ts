import { createHash } from 'node:crypto';
import type { Db, Queryable, Tx } from '../shared/db/knex.js';
import { DAY_MS } from '../shared/clock.js';
import { badInput, conflict } from '../shared/errors.js';

/** Expired rows deleted per stored key: pruning keeps pace with new keys without a long delete. */
const PRUNE_BATCH = 100;
/** 1–255 printable ASCII characters (the API description states the same pattern). */
export const IDEMPOTENCY_KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/** One create asked for under an idempotency key. */
type IdempotentRequest = NonNullable<ReturnType<typeof idempotentRequest>>;

/**
 * The request's idempotency terms, or null without a key: the same key must come with the same
 * operation and input (its fingerprint; fields absent and null count alike, the key is left out).
 * `cutoff` starts the window of one day: a key stored before it is free again.
 */
export function idempotentRequest(operation: string, input: Record<string, unknown> & { idempotencyKey?: string | null }, apiKeyId: number, now: Date) {
  const key = input.idempotencyKey;
  if (key === undefined || key === null) return null;
  if (!IDEMPOTENCY_KEY_FORMAT.test(key)) throw badInput('Idempotency-Key must be 1 to 255 printable ASCII characters');
  const fields = Object.keys(input)
    .filter((name) => name !== 'idempotencyKey' && input[name] !== undefined && input[name] !== null)
    .sort()
    .map((name) => [name, input[name]]);
  const fingerprint = createHash('sha256').update(JSON.stringify([operation, fields])).digest('hex');
  return { apiKeyId, key, fingerprint, cutoff: new Date(now.getTime() - DAY_MS).toISOString(), now };
}

/** The answer first given to this key within the window, if any; the same key with another request is a conflict. */
export async function recall<T>(db: Queryable, request: IdempotentRequest): Promise<T | undefined> {
  const row = (await db('idempotency_keys')
    .where({ api_key_id: request.apiKeyId, idempotency_key: request.key })
    .andWhere('created_at', '>', request.cutoff)
    .first('request_hash', 'response')) as { request_hash: string; response: string } | undefined;
  if (!row) return undefined;
  if (row.request_hash !== request.fingerprint) {
    throw conflict('This Idempotency-Key was used with a different request in the last 24 hours');
  }
  return JSON.parse(row.response) as T;
}

/**
 * Runs `create` in one write transaction, storing its result under the request's key there: a
 * repeat gets the stored result instead, checked in the transaction and, when a concurrent request
 * with the key committed first (its unique index rolls this one back), after it. A create that
 * throws leaves the key free.
 */
export async function createOnce<T>(db: Db, request: IdempotentRequest | null, create: (trx: Tx) => Promise<T>): Promise<T> {
  if (!request) return db.transaction(create);
  const stored = { api_key_id: request.apiKeyId, idempotency_key: request.key };
  let result: T;
  try {
    result = await db.transaction(async (trx) => {
      const earlier = await recall<T>(trx, request);
      if (earlier !== undefined) return earlier;
      const created = await create(trx);
      // An expired row for the key would hold the unique index.
      await trx('idempotency_keys').where(stored).andWhere('created_at', '<=', request.cutoff).delete();
      const row = { ...stored, request_hash: request.fingerprint, response: JSON.stringify(created), created_at: request.now.toISOString() };
      await trx('idempotency_keys').insert(row);
      return created;
    });
  } catch (error) {
    // The unique index refused the row: a concurrent request with the key may have committed first.
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== '23505' && code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
    const earlier = await recall<T>(db, request);
    if (earlier === undefined) throw error;
    return earlier;
  }
  // A batch of expired keys goes after the commit, outside the transaction, so it can neither slow
  // nor fail the request (a prune that loses a race is simply skipped; the next stored key tries again).
  const expired = db('idempotency_keys').where('created_at', '<=', request.cutoff).orderBy('created_at').limit(PRUNE_BATCH).select('id');
  await db('idempotency_keys').whereIn('id', expired).delete().catch(() => undefined);
  return result;
}
