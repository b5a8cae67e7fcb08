import { isPostgres, type Db, type Queryable, type Tx } from '../shared/db/knex.js';
import { conflict } from '../shared/errors.js';
import type { Principal } from '../shared/principal.js';
import type { KeysetPage } from '../shared/pagination/keyset.js';
import { alignById, groupById, toBool, toText } from '../shared/db/columns.js';
import { selectRows } from '../shared/db/statements.js';
import { applyKeysetPage, withinCompany } from './tenant-scope.js';

function toSubscriber(row: Record<string, unknown>) {
  return { subscriberId: Number(row.id), companyId: Number(row.company_id), name: String(row.name) };
}

function toEventFilter(row: Record<string, unknown>) {
  const subscriberId = Number(row.subscriber_id);
  return { webhookSubscriberEventFilterId: Number(row.id), subscriberId, event: String(row.event), eventType: String(row.event_type) };
}

export type SubscriberRecord = ReturnType<typeof toSubscriber>;
export type EventFilterRecord = ReturnType<typeof toEventFilter>;

export async function loadSubscribers(db: Db, principal: Principal, ids: readonly number[]): Promise<(SubscriberRecord | null)[]> {
  const query = withinCompany(db('subscribers').select('id', 'company_id', 'name').whereIn('id', ids as number[]), 'company_id', principal);
  return alignById(ids, ((await query) as Record<string, unknown>[]).map(toSubscriber), (s) => s.subscriberId);
}

/** Event filters of subscribers already known to be in scope, grouped like the ids. */
export async function eventFiltersOf(db: Db, subscriberIds: readonly number[]): Promise<EventFilterRecord[][]> {
  const rows = (await db('event_filters').whereIn('subscriber_id', subscriberIds as number[]).orderBy('id')) as Record<string, unknown>[];
  return groupById(subscriberIds, rows.map(toEventFilter), (filter) => filter.subscriberId);
}

/** A subscriber with its signing secrets and event filters, for an operator (never for an API caller). */
export async function findSubscriberSecrets(db: Db, id: number) {
  const row = (await db('subscribers').where({ id }).first()) as Record<string, unknown> | undefined;
  if (!row) return null;
  const filters = (await db('event_filters').where({ subscriber_id: id }).orderBy('id')) as Record<string, unknown>[];
  return {
    id: Number(row.id),
    companyId: Number(row.company_id),
    name: String(row.name),
    signingSecret: String(row.signing_secret),
    previousSigningSecret: toText(row.previous_signing_secret),
    previousSecretExpiresAt: toText(row.previous_secret_expires_at),
    eventFilters: filters.map((f) => ({ id: Number(f.id), event: String(f.event), eventType: String(f.event_type) })),
  };
}

/**
 * Replaces a subscriber's signing secret with `next`; the current one becomes the previous
 * secret until `previousExpiresAt`. False when there is no such subscriber.
 */
export async function rotateSigningSecret(db: Db, id: number, next: string, previousExpiresAt: string): Promise<boolean> {
  // One statement: its right-hand sides read the row as it was.
  const rotated = { signing_secret: next, previous_signing_secret: db.ref('signing_secret'), previous_secret_expires_at: previousExpiresAt };
  return (await db('subscribers').where({ id }).update(rotated)) > 0;
}

function toSubscription(row: Record<string, unknown>) {
  return {
    subscriptionId: Number(row.id),
    subscriberId: Number(row.subscriber_id),
    companyId: Number(row.company_id),
    webhookSubscriberEventFilterId: Number(row.event_filter_id),
    uri: String(row.uri),
    isActive: toBool(row.is_active) ?? false,
    event: String(row.event),
    eventType: String(row.event_type),
    createdDateTime: String(row.created_date_time),
    modifiedDateTime: String(row.modified_date_time),
  };
}

export type SubscriptionRecord = ReturnType<typeof toSubscription>;

/** Subscriptions not deleted, with their subscriber (`sb`, whose company owns them) and event filter (`f`). */
const liveSubscriptions = (db: Queryable) =>
  db('subscriptions as su').join('subscribers as sb', 'sb.id', 'su.subscriber_id').join('event_filters as f', 'f.id', 'su.event_filter_id').whereNull('su.deleted_at');

function selectSubscriptions(db: Queryable, principal: Principal) {
  return withinCompany(liveSubscriptions(db).select('su.*', 'sb.company_id', 'f.event', 'f.event_type'), 'sb.company_id', principal);
}

export async function loadSubscriptions(db: Queryable, principal: Principal, ids: readonly number[]): Promise<(SubscriptionRecord | null)[]> {
  const rows = await selectRows(db, selectSubscriptions(db, principal).whereIn('su.id', ids as number[]));
  return alignById(ids, rows.map(toSubscription), (s) => s.subscriptionId);
}

/** Whether this subscription belongs, or belonged, to the key's company: a deleted one's delivery log stays readable. */
export async function subscriptionOfCompany(db: Queryable, principal: Principal, id: number): Promise<boolean> {
  const query = withinCompany(db('subscriptions as su').join('subscribers as sb', 'sb.id', 'su.subscriber_id').where('su.id', id), 'sb.company_id', principal);
  return (await selectRows(db, query.select('su.id'))).length > 0;
}

/** A keyset page of a subscriber's subscriptions by id. */
export async function subscriptionsOf(db: Db, principal: Principal, subscriberId: number, page: KeysetPage): Promise<SubscriptionRecord[]> {
  const query = selectSubscriptions(db, principal).where('su.subscriber_id', subscriberId);
  return (await selectRows(db, applyKeysetPage(query, 'su.id', page))).map(toSubscription);
}

/**
 * Adds a subscription, unless its subscriber already has `maxPerSubscriber` (deleted ones aside):
 * then CONFLICT, with nothing written. The count and the insert share the transaction, and on
 * PostgreSQL the subscriber's row is locked first, so concurrent creates for one subscriber take
 * turns (SQLite's write transactions already do) and cannot pass the cap together.
 */
export async function insertSubscription(
  trx: Tx,
  values: { subscriberId: number; eventFilterId: number; uri: string; now: string },
  maxPerSubscriber: number,
): Promise<number> {
  if (isPostgres(trx)) await trx('subscribers').where({ id: values.subscriberId }).forUpdate().select('id');
  const [counted] = await trx('subscriptions').where({ subscriber_id: values.subscriberId }).whereNull('deleted_at').count({ n: '*' });
  if (Number(counted?.n) >= maxPerSubscriber) throw conflict(`a subscriber may have at most ${maxPerSubscriber} subscriptions`);
  const { eventFilterId, uri, now } = values;
  const row = { subscriber_id: values.subscriberId, event_filter_id: eventFilterId, uri, is_active: true, created_date_time: now, modified_date_time: now };
  const [inserted] = (await trx('subscriptions').insert(row).returning('id')) as { id: number }[];
  return Number(inserted!.id);
}

export async function updateSubscriptionRow(trx: Tx, id: number, changes: { uri?: string; isActive?: boolean; now: string }): Promise<void> {
  const row: Record<string, unknown> = { modified_date_time: changes.now };
  if (changes.uri !== undefined) row.uri = changes.uri;
  if (changes.isActive !== undefined) row.is_active = changes.isActive;
  await trx('subscriptions').where({ id }).update(row);
}

/**
 * Marks a subscription deleted, unless it already is; false when there was nothing to delete.
 * The row stays so its delivery log keeps referring to it.
 */
export async function markSubscriptionDeleted(trx: Tx, id: number, now: string): Promise<boolean> {
  return (await trx('subscriptions').where({ id }).whereNull('deleted_at').update({ deleted_at: now, is_active: false })) > 0;
}

/**
 * Subscriptions an event reaches: active, bound to this event/eventType pair, and owned by a
 * subscriber of the company that owns the record, so another company never sees it.
 */
export async function activeSubscriptionIdsFor(trx: Queryable, match: { companyId: number; event: string; eventType: string }): Promise<number[]> {
  const where = { 'sb.company_id': match.companyId, 'f.event': match.event, 'f.event_type': match.eventType, 'su.is_active': true };
  return ((await liveSubscriptions(trx).where(where).pluck('su.id')) as number[]).map(Number);
}
