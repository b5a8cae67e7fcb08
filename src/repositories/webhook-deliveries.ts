import { isPostgres, type Db, type Queryable } from '../shared/db/knex.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { applyKeysetPage } from './keyset-page.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryRecord {
  deliveryId: number;
  subscriptionId: number;
  webhookId: string;
  event: string;
  eventType: string;
  state: DeliveryState;
  attemptCount: number;
  nextAttemptAt: string | null;
  createdDateTime: string;
  completedDateTime: string | null;
}

export interface AttemptRecord {
  attemptedAt: string;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
}

function toDelivery(row: Record<string, unknown>): DeliveryRecord {
  return {
    deliveryId: Number(row.id),
    subscriptionId: Number(row.subscription_id),
    webhookId: String(row.webhook_id),
    event: String(row.event),
    eventType: String(row.event_type),
    state: String(row.state) as DeliveryState,
    attemptCount: Number(row.attempt_count),
    nextAttemptAt: row.state === 'pending' ? ((row.next_attempt_at as string | null) ?? null) : null,
    createdDateTime: String(row.created_at),
    completedDateTime: (row.completed_at as string | null) ?? null,
  };
}

function selectDeliveries(db: Db) {
  return db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .select('d.*', 'e.event', 'e.event_type');
}

/**
 * A keyset page of one subscription's deliveries, newest first. "Forward" walks towards older
 * deliveries, so the key comparisons are the reverse of an ascending list. The caller has
 * already checked that the subscription is in scope.
 */
export async function deliveryPage(db: Db, subscriptionId: number, page: KeysetPage): Promise<DeliveryRecord[]> {
  const query = selectDeliveries(db).where('d.subscription_id', subscriptionId);
  applyKeysetPage(query, 'd.id', page, 'desc');
  return ((await query) as Record<string, unknown>[]).map(toDelivery);
}

export async function findDelivery(db: Db, subscriptionId: number, deliveryId: number): Promise<DeliveryRecord | null> {
  const row = (await selectDeliveries(db).where({ 'd.id': deliveryId, 'd.subscription_id': subscriptionId }).first()) as
    | Record<string, unknown>
    | undefined;
  return row ? toDelivery(row) : null;
}

/** Attempts of several deliveries (oldest first), grouped like the ids: one statement per batch. */
export async function attemptsOf(db: Db, deliveryIds: readonly number[]): Promise<AttemptRecord[][]> {
  const rows = (await db('webhook_attempts')
    .whereIn('delivery_id', deliveryIds as number[])
    .orderBy('id')) as Record<string, unknown>[];
  const grouped = new Map<number, AttemptRecord[]>();
  for (const row of rows) {
    const list = grouped.get(Number(row.delivery_id)) ?? [];
    list.push({
      attemptedAt: String(row.attempted_at),
      httpStatus: row.http_status === null || row.http_status === undefined ? null : Number(row.http_status),
      durationMs: Number(row.duration_ms),
      error: (row.error as string | null) ?? null,
    });
    grouped.set(Number(row.delivery_id), list);
  }
  return deliveryIds.map((id) => grouped.get(id) ?? []);
}

/**
 * Queues a delivery again, due now, with the retry schedule started over. Its webhook-id and
 * stored body stay the same, so a receiver that already has it can recognise the repeat.
 */
export async function requeueDelivery(db: Db, deliveryId: number, now: Date): Promise<void> {
  await db('webhook_deliveries').where({ id: deliveryId }).update({
    state: 'pending',
    attempt_count: 0,
    next_attempt_at: now.toISOString(),
    completed_at: null,
    lease_owner: null,
    lease_expires_at: null,
  });
}

/** One pending delivery per subscription an event reaches, due at once, in the event's transaction. */
export async function insertPendingDeliveries(
  trx: Queryable,
  eventId: number,
  subscriptionIds: readonly number[],
  dueAt: string,
  webhookId: () => string,
): Promise<void> {
  if (subscriptionIds.length === 0) return;
  await trx('webhook_deliveries').insert(
    subscriptionIds.map((subscriptionId) => ({
      event_id: eventId,
      subscription_id: subscriptionId,
      webhook_id: webhookId(),
      state: 'pending',
      attempt_count: 0,
      next_attempt_at: dueAt,
      created_at: dueAt,
    })),
  );
}

/** A leased delivery with everything its send needs: the event, the subscription and its signing secrets. */
export interface LeasedDelivery {
  id: number;
  webhook_id: string;
  attempt_count: number;
  next_attempt_at: string | null;
  lease_owner: string;
  event_id: number;
  event: string;
  event_type: string;
  company_id: number;
  record_id: number;
  occurred_at: string;
  payload: string | null;
  subscription_id: number;
  uri: string;
  is_active: unknown;
  failing_since: string | null;
  modified_date_time: string;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: string | null;
}

/**
 * Leases up to `limit` due deliveries, oldest first, in one statement, and returns how many. On
 * PostgreSQL the inner SELECT uses FOR UPDATE SKIP LOCKED so concurrent dispatchers take disjoint
 * rows without waiting; on SQLite the single UPDATE is already atomic. Deliveries of the
 * `excluded` subscriptions are not taken.
 */
export async function leaseDueDeliveries(
  db: Db,
  lease: { token: string; now: string; until: string; limit: number; excluded: readonly number[] },
): Promise<number> {
  const due = db('webhook_deliveries')
    .select('id')
    .where('state', 'pending')
    .where('next_attempt_at', '<=', lease.now)
    .where((q) => q.whereNull('lease_expires_at').orWhere('lease_expires_at', '<', lease.now))
    .orderBy('next_attempt_at')
    .limit(lease.limit);
  if (lease.excluded.length > 0) due.whereNotIn('subscription_id', lease.excluded as number[]);
  if (isPostgres(db)) due.forUpdate().skipLocked();
  return db('webhook_deliveries').whereIn('id', due).update({ lease_owner: lease.token, lease_expires_at: lease.until });
}

/** The deliveries leased under `token`, joined with their event, subscription and subscriber. */
export async function leasedDeliveries(db: Db, token: string): Promise<LeasedDelivery[]> {
  return (await db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .join('subscriptions as su', 'su.id', 'd.subscription_id')
    .join('subscribers as sb', 'sb.id', 'su.subscriber_id')
    .where('d.lease_owner', token)
    .select(
      'd.id',
      'd.webhook_id',
      'd.attempt_count',
      'd.next_attempt_at',
      'd.lease_owner',
      'd.event_id',
      'e.event',
      'e.event_type',
      'e.company_id',
      'e.record_id',
      'e.occurred_at',
      'e.payload',
      'd.subscription_id',
      'su.uri',
      'su.is_active',
      'su.failing_since',
      'su.modified_date_time',
      'sb.signing_secret',
      'sb.previous_signing_secret',
      'sb.previous_secret_expires_at',
    )) as LeasedDelivery[];
}

/** Gives leased deliveries back (still held under `token`) without an attempt: due again at once. */
export async function releaseLeases(db: Db, ids: readonly number[], token: string): Promise<void> {
  await db('webhook_deliveries')
    .whereIn('id', ids as number[])
    .where('lease_owner', token)
    .update({ lease_owner: null, lease_expires_at: null });
}

export interface AttemptInsert {
  delivery_id: number;
  attempted_at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
  instance_id: string;
}

export async function insertAttempt(trx: Queryable, attempt: AttemptInsert): Promise<void> {
  await trx('webhook_attempts').insert(attempt);
}

/**
 * Moves a delivery on after an attempt, only while `leaseOwner` still holds it: if the lease
 * expired and another dispatcher took over, that one owns the row now. False when it did not.
 */
export async function settleDelivery(
  trx: Queryable,
  id: number,
  leaseOwner: string,
  settled: { state: string; attempt_count?: number; next_attempt_at: string | null; completed_at: string | null },
): Promise<boolean> {
  const updated = await trx('webhook_deliveries')
    .where({ id, lease_owner: leaseOwner })
    .update({ ...settled, lease_owner: null, lease_expires_at: null });
  return updated > 0;
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
