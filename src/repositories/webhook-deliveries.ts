import { chunk, ROWS_PER_INSERT } from '../shared/chunk.js';
import { isPostgres, type Db, type Queryable } from '../shared/db/knex.js';
import { withStatements, type Statements } from '../shared/db/statements.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { applyKeysetPage } from './keyset-page.js';
import type { EventRow } from './webhook-events.js';

export interface DeliveryRecord {
  deliveryId: number;
  subscriptionId: number;
  webhookId: string;
  event: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
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

/** Deliveries with their event's pair, read as DeliveryRecords. */
function selectDeliveries(db: Db) {
  return db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .select(
      { deliveryId: 'd.id', subscriptionId: 'd.subscription_id', webhookId: 'd.webhook_id', event: 'e.event', eventType: 'e.event_type', state: 'd.state' },
      { attemptCount: 'd.attempt_count', createdDateTime: 'd.created_at', completedDateTime: 'd.completed_at' },
      db.raw(`CASE WHEN d.state = 'pending' THEN d.next_attempt_at END AS "nextAttemptAt"`),
    );
}

/** A keyset page of one subscription's deliveries, newest first; the caller has checked that the subscription is in scope. */
export async function deliveryPage(db: Db, subscriptionId: number, page: KeysetPage): Promise<DeliveryRecord[]> {
  const query = selectDeliveries(db).where('d.subscription_id', subscriptionId);
  applyKeysetPage(query, 'd.id', page, 'desc');
  return (await query) as DeliveryRecord[];
}

export async function findDelivery(db: Db, subscriptionId: number, deliveryId: number): Promise<DeliveryRecord | null> {
  const row = (await selectDeliveries(db).where({ 'd.id': deliveryId, 'd.subscription_id': subscriptionId }).first()) as DeliveryRecord | undefined;
  return row ?? null;
}

/**
 * The latest `latest` attempts of several deliveries (oldest first), grouped like the ids, in one
 * statement. Redeliveries start the schedule over, so the window is what keeps the read bounded.
 */
export async function attemptsOf(db: Db, deliveryIds: readonly number[], latest: number): Promise<AttemptRecord[][]> {
  const numbered = db('webhook_attempts')
    .select('*')
    .rowNumber('newest', (window) => window.orderBy('id', 'desc').partitionBy('delivery_id'))
    .whereIn('delivery_id', deliveryIds as number[])
    .as('numbered');
  const rows = (await db
    .select({ deliveryId: 'delivery_id', attemptedAt: 'attempted_at', httpStatus: 'http_status', durationMs: 'duration_ms', error: 'error' })
    .from(numbered)
    .where('newest', '<=', latest)
    .orderBy('id')) as (AttemptRecord & { deliveryId: number })[];
  const grouped = new Map<number, AttemptRecord[]>(deliveryIds.map((id) => [id, []]));
  for (const { deliveryId, ...attempt } of rows) grouped.get(deliveryId)?.push(attempt);
  return deliveryIds.map((id) => grouped.get(id)!);
}

/** Queues a delivery again, due now, with the retry schedule started over; its webhook-id and stored body stay (a receiver can recognise the repeat). */
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

/** One pending delivery per subscription an event reaches, due at once, in the event's transaction, a bounded statement at a time. */
export async function insertPendingDeliveries(
  trx: Queryable,
  eventId: number,
  subscriptionIds: readonly number[],
  dueAt: string,
  webhookId: () => string,
): Promise<void> {
  for (const ids of chunk(subscriptionIds, ROWS_PER_INSERT)) {
    await trx('webhook_deliveries').insert(
      ids.map((subscriptionId) => ({
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
 * returns them (on PostgreSQL skipping locked rows, so concurrent dispatchers take disjoint ones).
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
    ') RETURNING id, subscription_id AS "subscriptionId", next_attempt_at AS "nextAttemptAt"'
  );
}

/** Rows by id with their event, subscription and subscriber. */
const leasedSql = (count: number) =>
  'SELECT d.id, d.webhook_id, d.attempt_count, d.next_attempt_at, d.lease_owner, d.event_id, d.subscription_id, ' +
  'e.event, e.event_type, e.company_id, e.record_id, e.occurred_at, e.payload, su.uri, su.is_active, su.failing_since, ' +
  'su.modified_date_time, sb.signing_secret, sb.previous_signing_secret, sb.previous_secret_expires_at ' +
  'FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN subscriptions su ON su.id = d.subscription_id ' +
  `JOIN subscribers sb ON sb.id = su.subscriber_id WHERE d.id IN (${placeholders(count)})`;

/** A due delivery just leased: what placing it under the caps needs. */
export interface DueDelivery {
  id: number;
  subscriptionId: number;
  nextAttemptAt: string;
}

export interface Lease {
  token: string;
  now: string;
  until: string;
  limit: number;
}

function leaseWith(sql: Statements, db: Db, lease: Lease, filter: string, ids: readonly number[]) {
  return sql.all(leaseSql(filter, isPostgres(db)), [lease.token, lease.until, lease.now, lease.now, ...ids, lease.limit]);
}

/** Leases up to `limit` due deliveries, oldest first, except those of the `excluded` subscriptions, and reads them whole: two statements. */
export async function leaseDueDeliveries(db: Db, lease: Lease & { excluded: readonly number[] }): Promise<LeasedDelivery[]> {
  return withStatements(db, { transaction: false }, async (sql) => {
    const filter = lease.excluded.length > 0 ? ` AND subscription_id NOT IN (${placeholders(lease.excluded.length)})` : '';
    const ids = await leaseWith(sql, db, lease, filter, lease.excluded);
    if (ids.length === 0) return [];
    const rows = (await sql.all(leasedSql(ids.length), ids.map((row) => Number(row.id)))) as unknown as LeasedDelivery[];
    // A cancel between the two statements clears the lease: that row is not ours to send.
    return rows.filter((row) => row.lease_owner === lease.token);
  });
}

/** Leases up to `limit` due deliveries of `subscriptions`, oldest first, returning only what placing them needs (each is read whole just before it is sent). */
export async function leaseDueOfSubscriptions(db: Db, lease: Lease & { subscriptions: readonly number[] }): Promise<DueDelivery[]> {
  if (lease.subscriptions.length === 0 || lease.limit <= 0) return [];
  // The unary plus keeps the planner on the due-time index, walking due rows oldest first,
  // instead of reading every row of the subscriptions (finished ones included) and sorting.
  const filter = ` AND +subscription_id IN (${placeholders(lease.subscriptions.length)})`;
  return (await withStatements(db, { transaction: false }, (sql) => leaseWith(sql, db, lease, filter, lease.subscriptions))) as unknown as DueDelivery[];
}

/** The deliveries of `ids` read afresh: the lease (cleared by a cancel, or passed on), the subscription and its signing secrets may have changed. */
export async function readLeased(db: Db, ids: readonly number[]): Promise<LeasedDelivery[]> {
  if (ids.length === 0) return [];
  return withStatements(db, { transaction: false }, async (sql) => (await sql.all(leasedSql(ids.length), ids)) as unknown as LeasedDelivery[]);
}

/** Gives leased deliveries back (still held under `token`) without an attempt: due again at once. */
export async function releaseLeases(db: Db, ids: readonly number[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await withStatements(db, { transaction: false }, (sql) =>
    sql.run(`UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ? AND id IN (${placeholders(ids.length)})`, [
      token,
      ...ids,
    ]),
  );
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
 * Records attempts and moves their deliveries on, in one transaction, in order; returns whether
 * each moved (only while it still holds the lease; else only the attempt is kept). A transaction
 * that fails writes nothing: those deliveries keep their leases and are sent again.
 */
export async function settleDeliveries(db: Db, settlements: readonly Settlement[]): Promise<boolean[]> {
  // On SQLite the transaction holds the write lock from its first statement to its commit, so a
  // subscription whose failing_since it cleared stays clear until it sets one itself: clearing it
  // again for the next delivered attempt of that subscription would change nothing. (PostgreSQL
  // lets other dispatchers commit in between, so there every delivered attempt clears it.)
  const clearOnce = !isPostgres(db);
  return withStatements(db, { transaction: true }, async (sql) => {
    const moved: boolean[] = [];
    const cleared = new Set<number>();
    for (const s of settlements) {
      if (s.attempt) {
        const a = s.attempt;
        await sql.run(INSERT_ATTEMPT, [a.delivery_id, a.attempted_at, a.http_status, a.duration_ms, a.error, a.instance_id]);
      }
      const d = s.delivery;
      const changed = await sql.run(SETTLE_DELIVERY, [d.state, d.attempt_count ?? null, d.next_attempt_at, d.completed_at, s.deliveryId, s.leaseOwner]);
      moved.push(changed > 0);
      if (changed === 0) continue;
      if (s.deactivate) {
        cleared.delete(s.subscriptionId);
        const [current] = await sql.all(SUBSCRIPTION_MODIFIED, [s.subscriptionId]);
        const previous = (current?.modified_date_time as string | null | undefined) ?? null;
        await sql.run(DEACTIVATE, [false, s.deactivate(previous), s.subscriptionId, true]);
      } else if (s.failingSince === null) {
        if (cleared.has(s.subscriptionId)) continue;
        await sql.run(CLEAR_FAILING_SINCE, [s.subscriptionId]);
        if (clearOnce) cleared.add(s.subscriptionId);
      } else if (s.failingSince !== undefined) {
        cleared.delete(s.subscriptionId);
        await sql.run(SET_FAILING_SINCE, [s.failingSince, s.subscriptionId]);
      }
    }
    return moved;
  });
}

/** Cancels a subscription's pending deliveries, leased ones too: the cleared lease makes the settle of an attempt under way a no-op. */
export async function cancelPendingDeliveries(trx: Queryable, subscriptionId: number, now: string): Promise<number> {
  return trx('webhook_deliveries')
    .where({ subscription_id: subscriptionId, state: 'pending' })
    .update({ state: 'cancelled', next_attempt_at: null, completed_at: now, lease_owner: null, lease_expires_at: null });
}
