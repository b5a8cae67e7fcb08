import type { Db } from '../shared/db/knex.js';
import type { Principal } from '../shared/principal.js';
import { alignById, groupById, toText } from '../shared/db/columns.js';
import { withinCompany } from './tenant-scope.js';

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
export interface SubscriberSecrets {
  id: number;
  companyId: number;
  name: string;
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSecretExpiresAt: string | null;
  eventFilters: { id: number; event: string; eventType: string }[];
}

export async function findSubscriberSecrets(db: Db, id: number): Promise<SubscriberSecrets | null> {
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
  return db.transaction(async (trx) => {
    const row = (await trx('subscribers').where({ id }).first('signing_secret')) as { signing_secret: string } | undefined;
    if (!row) return false;
    await trx('subscribers').where({ id }).update({
      signing_secret: next,
      previous_signing_secret: row.signing_secret,
      previous_secret_expires_at: previousExpiresAt,
    });
    return true;
  });
}
