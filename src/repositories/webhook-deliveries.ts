import { chunk, ROWS_PER_INSERT } from '../shared/chunk.js';
import { isPostgres, type Db, type Queryable } from '../shared/db/knex.js';
import { groupById, toInt, toText } from '../shared/db/columns.js';
import { changesOf, rowsOf } from '../shared/db/statements.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { applyKeysetPage } from './tenant-scope.js';
import type { EventRow } from './webhook-events.js';

function toDelivery(row: Record<string, unknown>) {
  return {
    deliveryId: Number(row.id),
    subscriptionId: Number(row.subscription_id),
    webhookId: String(row.webhook_id),
    event: String(row.event),
    eventType: String(row.event_type),
    state: String(row.state) as 'pending' | 'delivered' | 'failed' | 'cancelled',
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: row.state === 'pending' ? toText(row.next_attempt_at) : null,
    createdDateTime: String(row.created_at),
    completedDateTime: toText(row.completed_at),
  };
}

function toAttempt(row: Record<string, unknown>) {
  return {
    attemptedAt: String(row.attempted_at),
    httpStatus: toInt(row.http_status),
    durationMs: Number(row.duration_ms),
    error: toText(row.error),
  };
}

export type DeliveryRecord = ReturnType<typeof toDelivery>;
export type AttemptRecord = ReturnType<typeof toAttempt>;

function selectDeliveries(db: Db) {
  return db('webhook_deliveries as d').join('webhook_events as e', 'e.id', 'd.event_id').select('d.*', 'e.event', 'e.event_type');
}

/** A keyset page of one subscription's deliveries, newest first; the caller checked the subscription's scope. */
export async function deliveryPage(db: Db, subscriptionId: number, page: KeysetPage): Promise<DeliveryRecord[]> {
  const query = selectDeliveries(db).where('d.subscription_id', subscriptionId);
  return ((await applyKeysetPage(query, 'd.id', page, 'desc')) as Record<string, unknown>[]).map(toDelivery);
}

export async function findDelivery(db: Db, subscriptionId: number, deliveryId: number): Promise<DeliveryRecord | null> {
  const row: unknown = await selectDeliveries(db).where({ 'd.id': deliveryId, 'd.subscription_id': subscriptionId }).first();
  return row ? toDelivery(row as Record<string, unknown>) : null;
}

/**
 * The latest `latest` attempts of several deliveries (oldest first), grouped like the ids, in one
 * statement. Redeliveries start the schedule over, so only the window bounds what is read.
 */
export async function attemptsOf(db: Db, deliveryIds: readonly number[], latest: number): Promise<AttemptRecord[][]> {
  const numbered = db('webhook_attempts')
    .select('*')
    .rowNumber('newest', (window) => window.orderBy('id', 'desc').partitionBy('delivery_id'))
    .whereIn('delivery_id', deliveryIds as number[])
    .as('numbered');
  const rows = (await db.select('*').from(numbered).where('newest', '<=', latest).orderBy('id')) as Record<string, unknown>[];
  return groupById(deliveryIds, rows, (row) => Number(row.delivery_id)).map((attempts) => attempts.map(toAttempt));
}

/** Queues a delivery again, due now, its schedule started over; the same webhook-id and body let a receiver see the repeat. */
export async function requeueDelivery(db: Db, deliveryId: number, now: Date): Promise<void> {
  const due = { state: 'pending', attempt_count: 0, next_attempt_at: now.toISOString(), completed_at: null, lease_owner: null, lease_expires_at: null };
  await db('webhook_deliveries').where({ id: deliveryId }).update(due);
}

/** One pending delivery per subscription an event reaches, due at once, in the event's transaction, a bounded insert at a time. */
export async function insertPendingDeliveries(
  trx: Queryable,
  eventId: number,
  subscriptionIds: readonly number[],
  dueAt: string,
  webhookId: () => string,
): Promise<void> {
  const pending = { event_id: eventId, state: 'pending', attempt_count: 0, next_attempt_at: dueAt, created_at: dueAt };
  for (const ids of chunk(subscriptionIds, ROWS_PER_INSERT)) {
    await trx('webhook_deliveries').insert(ids.map((subscriptionId) => ({ ...pending, subscription_id: subscriptionId, webhook_id: webhookId() })));
  }
}

/** A leased delivery with everything its send needs: the event, the subscription and its signing secrets. */
export interface LeasedDelivery extends EventRow {
  id: number;
  webhook_id: string;
  attempt_count: number;
  next_attempt_at: string | null;
  lease_owner: string;
  subscription_id: number;
  uri: string;
  is_active: unknown;
  failing_since: string | null;
  modified_date_time: string;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: string | null;
}

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * The lease: up to `limit` due rows, oldest first, marked with the token in one UPDATE that
 * returns them. On PostgreSQL the inner SELECT locks with SKIP LOCKED, so concurrent
 * dispatchers take disjoint rows without waiting; on SQLite the single UPDATE is atomic.
 * `filter` narrows the subscriptions (its placeholders are bound before the limit).
 */
function leaseSql(filter: string, postgres: boolean): string {
  return (
    'UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id IN (' +
    "SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? " +
    'AND (lease_expires_at IS NULL OR lease_expires_at < ?)' +
    filter +
    ' ORDER BY next_attempt_at LIMIT ?' +
    (postgres ? ' FOR UPDATE SKIP LOCKED' : '') +
    ') RETURNING id, subscription_id, next_attempt_at'
  );
}

/** Rows by id with their event, subscription and subscriber. */
const leasedSql = (count: number) =>
  'SELECT d.id, d.webhook_id, d.attempt_count, d.next_attempt_at, d.lease_owner, d.event_id, d.subscription_id, ' +
  'e.event, e.event_type, e.company_id, e.record_id, e.occurred_at, e.payload, su.uri, su.is_active, su.failing_since, ' +
  'su.modified_date_time, sb.signing_secret, sb.previous_signing_secret, sb.previous_secret_expires_at ' +
  'FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN subscriptions su ON su.id = d.subscription_id ' +
  `JOIN subscribers sb ON sb.id = su.subscriber_id WHERE d.id IN (${placeholders(count)})`;

type Lease = { token: string; now: string; until: string; limit: number };

function leaseRows(db: Db, lease: Lease, filter: string, ids: readonly number[]) {
  return rowsOf(db, leaseSql(filter, isPostgres(db)), [lease.token, lease.until, lease.now, lease.now, ...ids, lease.limit]);
}

/**
 * Leases up to `limit` due deliveries, oldest first, except those of the `excluded`
 * subscriptions, and returns them read whole (readLeased): two statements.
 */
export async function leaseDueDeliveries(db: Db, lease: Lease & { excluded: readonly number[] }): Promise<LeasedDelivery[]> {
  const filter = lease.excluded.length > 0 ? ` AND subscription_id NOT IN (${placeholders(lease.excluded.length)})` : '';
  const leased = await leaseRows(db, lease, filter, lease.excluded);
  const rows = await readLeased(db, leased.map((row) => Number(row.id)));
  // A cancel between the two statements clears the lease: that row is not ours to send.
  return rows.filter((row) => row.lease_owner === lease.token);
}

/** A due delivery just leased: what placing it under the caps needs. */
export interface DueDelivery {
  id: number;
  subscriptionId: number;
  nextAttemptAt: string;
}

/**
 * Leases up to `limit` due deliveries of `subscriptions` (those seen sending to one destination),
 * oldest first, in one statement; each is read whole (readLeased) just before it is sent.
 */
export async function leaseDueOfSubscriptions(db: Db, lease: Lease & { subscriptions: readonly number[] }): Promise<DueDelivery[]> {
  if (lease.subscriptions.length === 0 || lease.limit <= 0) return [];
  // The unary plus keeps the planner on the due-time index, walking due rows oldest first,
  // instead of reading every row of the subscriptions (finished ones included) and sorting.
  const filter = ` AND +subscription_id IN (${placeholders(lease.subscriptions.length)})`;
  const rows = await leaseRows(db, lease, filter, lease.subscriptions);
  return rows.map((row) => ({ id: Number(row.id), subscriptionId: Number(row.subscription_id), nextAttemptAt: String(row.next_attempt_at) }));
}

/**
 * The deliveries of `ids` read afresh with what may have changed while held: the lease (cleared by
 * a cancel, or passed on; the caller compares it with its own), the subscription, the secrets.
 */
export async function readLeased(db: Db, ids: readonly number[]): Promise<LeasedDelivery[]> {
  if (ids.length === 0) return [];
  return (await rowsOf(db, leasedSql(ids.length), ids)) as unknown as LeasedDelivery[];
}

/** Gives leased deliveries back (still held under `token`) without an attempt: due again at once. */
export async function releaseLeases(db: Db, ids: readonly number[], token: string): Promise<void> {
  if (ids.length === 0) return;
  const release = `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ? AND id IN (${placeholders(ids.length)})`;
  await changesOf(db, release, [token, ...ids]);
}

export interface AttemptInsert {
  delivery_id: number;
  attempted_at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
  instance_id: string;
}

/** One attempt's outcome: the attempt row, where the delivery moves, and what it means for the subscription. */
export interface Settlement {
  deliveryId: number;
  /** The lease the attempt was made under: the delivery only moves while it still holds. */
  leaseOwner: string;
  delivery: { state: string; attempt_count?: number; next_attempt_at: string | null; completed_at: string | null };
  attempt: AttemptInsert | null;
  subscriptionId: number;
  /** Set the subscription's failing_since (null clears it); undefined leaves it. */
  failingSince?: string | null;
  /**
   * Pause the subscription (410, or failing for too long), unless it was paused meanwhile; its
   * modified time, computed from the stored one, moves on strictly.
   */
  deactivate?: (previousModified: string | null) => string;
}

const INSERT_ATTEMPT =
  'INSERT INTO webhook_attempts (delivery_id, attempted_at, http_status, duration_ms, error, instance_id) VALUES (?, ?, ?, ?, ?, ?)';
const SETTLE_DELIVERY =
  'UPDATE webhook_deliveries SET state = ?, attempt_count = COALESCE(CAST(? AS integer), attempt_count), next_attempt_at = ?, ' +
  'completed_at = ?, lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?';
const SET_FAILING_SINCE = 'UPDATE subscriptions SET failing_since = ? WHERE id = ?';
/** A delivered attempt clears failing_since; a subscription that was not failing is not written at all. */
const CLEAR_FAILING_SINCE = 'UPDATE subscriptions SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL';
const SUBSCRIPTION_MODIFIED = 'SELECT modified_date_time FROM subscriptions WHERE id = ?';
const DEACTIVATE =
  'UPDATE subscriptions SET is_active = ?, failing_since = NULL, modified_date_time = ? WHERE id = ? AND is_active = ?';

/**
 * Records attempts and moves their deliveries on, all in one transaction, in the order given.
 * Each delivery update is conditional on still holding the lease: if it expired and another
 * dispatcher took over, that one owns the row now, the attempt is kept and nothing else
 * changes. Returns, per settlement, whether the delivery moved. A transaction that fails
 * writes nothing: those deliveries keep their leases and are sent again when they expire.
 */
export async function settleDeliveries(db: Db, settlements: readonly Settlement[]): Promise<boolean[]> {
  // SQLite's transaction holds the write lock throughout, so a failing_since it cleared stays clear
  // until it sets one itself; PostgreSQL lets other dispatchers commit in between, so there every
  // delivered attempt clears it.
  const clearOnce = !isPostgres(db);
  return db.transaction(async (trx) => {
    const moved: boolean[] = [];
    const cleared = new Set<number>();
    for (const s of settlements) {
      if (s.attempt) {
        const a = s.attempt;
        await changesOf(trx, INSERT_ATTEMPT, [a.delivery_id, a.attempted_at, a.http_status, a.duration_ms, a.error, a.instance_id]);
      }
      const d = s.delivery;
      const settle = [d.state, d.attempt_count ?? null, d.next_attempt_at, d.completed_at, s.deliveryId, s.leaseOwner];
      const changed = await changesOf(trx, SETTLE_DELIVERY, settle);
      moved.push(changed > 0);
      if (changed === 0) continue;
      if (s.deactivate) {
        cleared.delete(s.subscriptionId);
        const [current] = await rowsOf(trx, SUBSCRIPTION_MODIFIED, [s.subscriptionId]);
        const previous = (current?.modified_date_time as string | null | undefined) ?? null;
        await changesOf(trx, DEACTIVATE, [false, s.deactivate(previous), s.subscriptionId, true]);
      } else if (s.failingSince === null) {
        if (cleared.has(s.subscriptionId)) continue;
        await changesOf(trx, CLEAR_FAILING_SINCE, [s.subscriptionId]);
        if (clearOnce) cleared.add(s.subscriptionId);
      } else if (s.failingSince !== undefined) {
        cleared.delete(s.subscriptionId);
        await changesOf(trx, SET_FAILING_SINCE, [s.failingSince, s.subscriptionId]);
      }
    }
    return moved;
  });
}

/**
 * Cancels a subscription's pending deliveries, leased ones too: clearing the lease makes the
 * dispatcher's settle of an attempt already under way a no-op, so nothing is retried.
 */
export async function cancelPendingDeliveries(trx: Queryable, subscriptionId: number, now: string): Promise<number> {
  return trx('webhook_deliveries')
    .where({ subscription_id: subscriptionId, state: 'pending' })
    .update({ state: 'cancelled', next_attempt_at: null, completed_at: now, lease_owner: null, lease_expires_at: null });
}
