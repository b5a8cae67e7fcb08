import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { Principal } from '../auth/principal.js';
import { applyKeysetPage, type KeysetPage } from '../pagination/keyset.js';
import { alignById, toBool } from './columns.js';
import { withinCompany } from './tenant-scope.js';
import { selectRows } from '../db/select-rows.js';

export interface SubscriptionRecord {
  subscriptionId: number;
  subscriberId: number;
  companyId: number;
  webhookSubscriberEventFilterId: number;
  uri: string;
  isActive: boolean;
  event: string;
  eventType: string;
  createdDateTime: string;
  modifiedDateTime: string;
}

function toSubscription(row: Record<string, unknown>): SubscriptionRecord {
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

function selectSubscriptions(db: Db | Knex.Transaction, principal: Principal) {
  return withinCompany(
    db('subscriptions as su')
      .join('subscribers as sb', 'sb.id', 'su.subscriber_id')
      .join('event_filters as f', 'f.id', 'su.event_filter_id')
      .select('su.*', 'sb.company_id', 'f.event', 'f.event_type'),
    'sb.company_id',
    principal,
  );
}

export async function loadSubscriptions(
  db: Db | Knex.Transaction,
  principal: Principal,
  ids: readonly number[],
): Promise<(SubscriptionRecord | null)[]> {
  const rows = await selectRows(db, selectSubscriptions(db, principal).whereIn('su.id', ids as number[]));
  return alignById(ids, rows.map(toSubscription), (s) => s.subscriptionId);
}

/** A keyset page of a subscriber's subscriptions by id, or all of them when `page` is null. */
export async function subscriptionsOf(
  db: Db,
  principal: Principal,
  subscriberId: number,
  page: KeysetPage | null,
): Promise<SubscriptionRecord[]> {
  const query = selectSubscriptions(db, principal).where('su.subscriber_id', subscriberId);
  if (page) {
    applyKeysetPage(query, 'su.id', page);
  } else {
    query.orderBy('su.id', 'asc');
  }
  return (await selectRows(db, query)).map(toSubscription);
}

export async function insertSubscription(
  trx: Knex.Transaction,
  values: { subscriberId: number; eventFilterId: number; uri: string; now: string },
): Promise<number> {
  const [inserted] = await trx('subscriptions')
    .insert({
      subscriber_id: values.subscriberId,
      event_filter_id: values.eventFilterId,
      uri: values.uri,
      is_active: true,
      created_date_time: values.now,
      modified_date_time: values.now,
    })
    .returning('id');
  return Number(typeof inserted === 'object' ? (inserted as { id: number }).id : inserted);
}

export async function updateSubscriptionRow(
  trx: Knex.Transaction,
  id: number,
  changes: { uri?: string; isActive?: boolean; now: string },
): Promise<void> {
  const row: Record<string, unknown> = { modified_date_time: changes.now };
  if (changes.uri !== undefined) row.uri = changes.uri;
  if (changes.isActive !== undefined) row.is_active = changes.isActive;
  await trx('subscriptions').where({ id }).update(row);
}
