import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../shared/db/knex.js';
import { badInput, conflict } from '../shared/errors.js';

/** How long a key is remembered; after that it may be used again. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/** Expired rows deleted per stored key: pruning keeps pace with new keys without a long delete. */
const PRUNE_BATCH = 100;
/** 1–255 printable ASCII characters (the API description states the same pattern). */
export const IDEMPOTENCY_KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/** One create asked for under an idempotency key. */
export interface IdempotentRequest {
  apiKeyId: number;
  key: string;
  /** The operation and its input without the key: the same key must come with the same request. */
  fingerprint: string;
  now: Date;
}

/**
 * The request's idempotency terms, or null without a key. The input's fields count as sent,
 * absent and null alike; the key itself is left out of the fingerprint.
 */
export function idempotentRequest(
  operation: string,
  input: Record<string, unknown> & { idempotencyKey?: string | null },
  apiKeyId: number,
  now: Date,
): IdempotentRequest | null {
  const key = input.idempotencyKey;
  if (key === undefined || key === null) return null;
  if (!IDEMPOTENCY_KEY_FORMAT.test(key)) throw badInput('Idempotency-Key must be 1 to 255 printable ASCII characters');
  const fields = Object.keys(input)
    .filter((name) => name !== 'idempotencyKey' && input[name] !== undefined && input[name] !== null)
    .sort()
    .map((name) => [name, input[name]]);
  const fingerprint = createHash('sha256').update(JSON.stringify([operation, fields])).digest('hex');
  return { apiKeyId, key, fingerprint, now };
}

function cutoff(request: IdempotentRequest): string {
  return new Date(request.now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
}

/**
 * The answer first given to this key within the window, or undefined when there is none.
 * The same key with another request is a conflict.
 */
export async function recall<T>(db: Db | Knex.Transaction, request: IdempotentRequest): Promise<T | undefined> {
  const row = (await db('idempotency_keys')
    .where({ api_key_id: request.apiKeyId, idempotency_key: request.key })
    .andWhere('created_at', '>', cutoff(request))
    .first('request_hash', 'response')) as { request_hash: string; response: string } | undefined;
  if (!row) return undefined;
  if (row.request_hash !== request.fingerprint) {
    throw conflict('This Idempotency-Key was used with a different request in the last 24 hours');
  }
  return JSON.parse(row.response) as T;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Runs `create` in one write transaction. With a request, the result is stored under its key
 * in the same transaction, and a repeat gets the stored result instead of creating again:
 * checked inside the transaction, and, when a concurrent request with the key committed
 * first (the unique index refuses the second row and this transaction rolls back), after it.
 * Only results are remembered: a create that throws leaves the key free.
 */
export async function createOnce<T>(db: Db, request: IdempotentRequest | null, create: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (!request) return db.transaction(create);
  let result: T;
  try {
    result = await db.transaction(async (trx) => {
      const earlier = await recall<T>(trx, request);
      if (earlier !== undefined) return earlier;
      const created = await create(trx);
      // An expired row for the key would hold the unique index.
      await trx('idempotency_keys')
        .where({ api_key_id: request.apiKeyId, idempotency_key: request.key })
        .andWhere('created_at', '<=', cutoff(request))
        .delete();
      await trx('idempotency_keys').insert({
        api_key_id: request.apiKeyId,
        idempotency_key: request.key,
        request_hash: request.fingerprint,
        response: JSON.stringify(created),
        created_at: request.now.toISOString(),
      });
      return created;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const earlier = await recall<T>(db, request);
    if (earlier === undefined) throw error;
    return earlier;
  }
  await pruneExpired(db, request);
  return result;
}

/**
 * Deletes a batch of expired keys, after the create committed and outside its transaction, so
 * it can neither slow nor fail the request (a prune that loses a race is simply skipped).
 */
async function pruneExpired(db: Db, request: IdempotentRequest): Promise<void> {
  try {
    const expired = db('idempotency_keys').where('created_at', '<=', cutoff(request)).orderBy('created_at').limit(PRUNE_BATCH).select('id');
    await db('idempotency_keys').whereIn('id', expired).delete();
  } catch {
    // The next stored key tries again.
  }
}
