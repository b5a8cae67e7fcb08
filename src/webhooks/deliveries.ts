import type { Db } from '../db/knex.js';
import { applyKeysetPage, type KeysetPage } from '../pagination/keyset.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

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
