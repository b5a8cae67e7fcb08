import type { Db } from '../db/knex.js';
import type { Principal } from '../auth/principal.js';
import { alignById } from './columns.js';
import { withinCompany } from './tenant-scope.js';

export interface SubscriberRecord {
  subscriberId: number;
  companyId: number;
  name: string;
}

export interface EventFilterRecord {
  webhookSubscriberEventFilterId: number;
  subscriberId: number;
  event: string;
  eventType: string;
}

export async function loadSubscribers(
  db: Db,
  principal: Principal,
  ids: readonly number[],
): Promise<(SubscriberRecord | null)[]> {
  const rows = (await withinCompany(
    db('subscribers').select('id', 'company_id', 'name').whereIn('id', ids as number[]),
    'company_id',
    principal,
  )) as { id: number; company_id: number; name: string }[];
  const records = rows.map((row) => ({ subscriberId: Number(row.id), companyId: Number(row.company_id), name: row.name }));
  return alignById(ids, records, (s) => s.subscriberId);
}

/** Event filters of subscribers already known to be in scope, grouped like the ids. */
export async function eventFiltersOf(db: Db, subscriberIds: readonly number[]): Promise<EventFilterRecord[][]> {
  const rows = (await db('event_filters')
    .whereIn('subscriber_id', subscriberIds as number[])
    .orderBy('id')) as { id: number; subscriber_id: number; event: string; event_type: string }[];
  const grouped = new Map<number, EventFilterRecord[]>();
  for (const row of rows) {
    const filter = {
      webhookSubscriberEventFilterId: Number(row.id),
      subscriberId: Number(row.subscriber_id),
      event: row.event,
      eventType: row.event_type,
    };
    const list = grouped.get(filter.subscriberId) ?? [];
    list.push(filter);
    grouped.set(filter.subscriberId, list);
  }
  return subscriberIds.map((id) => grouped.get(id) ?? []);
}
