import { randomBytes } from 'node:crypto';
import { licenseCompanies } from '../repositories/licenses.js';
import { activeSubscriptionIdsFor } from '../repositories/subscriptions.js';
import { timesheetCompanies } from '../repositories/timesheets.js';
import { insertPendingDeliveries } from '../repositories/webhook-deliveries.js';
import { insertEvent, type EventInsert } from '../repositories/webhook-events.js';
import { insertEvents } from '../repositories/webhook-events-bulk.js';
import type { Queryable } from '../shared/db/knex.js';
import type { CatalogEvent } from './catalog.js';

/** An event to emit; `dedupeKey`, for one that may happen only once, already taken by the caller (claimEventKeys). */
export type NewEvent = Omit<EventInsert, 'event' | 'dedupeKey'> & { event: CatalogEvent; dedupeKey?: string };

export function newWebhookId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * Writes an event and one pending delivery per matching subscription (active, bound to this
 * pair, owned by a subscriber of the record's company: another company never sees it), in the
 * caller's transaction. Returns the event id, or null when the dedupe key is already stored.
 */
export async function emitEvent(trx: Queryable, input: NewEvent): Promise<number | null> {
  const eventId = await insertEvent(trx, { ...input, dedupeKey: input.dedupeKey ?? null });
  if (eventId === null) return null;
  const subscriptionIds = await activeSubscriptionIdsFor(trx, input);
  await insertPendingDeliveries(trx, eventId, subscriptionIds, input.occurredAt, newWebhookId);
  return eventId;
}

/** What a write path reports about one timesheet or license it touched. */
export interface RecordChange {
  id: number;
  change: 'created' | 'changed' | 'unchanged';
  /** A timesheet whose status became Approved (case-insensitive) with this write. */
  becameApproved?: boolean;
}

export interface DataChanges {
  timesheets?: readonly RecordChange[];
  licenses?: readonly RecordChange[];
}

/** Changes turned into events at a time: bounds the owners and events held for a large import. */
const CHANGES_PER_SLICE = 500;

/**
 * Turns a write's changes into events in the same transaction, as emitEvent would one by one:
 * created/updated per record, plus timesheet/approved when a status became Approved; unchanged
 * records emit nothing. Matching subscriptions are looked up once per company and pair.
 */
export async function emitDataEvents(trx: Queryable, changes: DataChanges, now: Date = new Date()): Promise<number> {
  const occurredAt = now.toISOString();
  const subscriptions = new Map<string, number[]>();
  const subscriptionsFor = async (match: { companyId: number; event: string; eventType: string }) => {
    const key = `${match.companyId}\u0000${match.event}\u0000${match.eventType}`;
    if (!subscriptions.has(key)) subscriptions.set(key, await activeSubscriptionIdsFor(trx, match));
    return subscriptions.get(key)!;
  };
  let emitted = 0;
  for (const kind of ['timesheet', 'license'] as const) {
    const list = (kind === 'timesheet' ? changes.timesheets : changes.licenses) ?? [];
    const touched = list.filter((c) => c.change !== 'unchanged' || c.becameApproved);
    for (let start = 0; start < touched.length; start += CHANGES_PER_SLICE) {
      const slice = touched.slice(start, start + CHANGES_PER_SLICE);
      const ids = slice.map((c) => c.id);
      const owners = kind === 'timesheet' ? await timesheetCompanies(trx, ids) : await licenseCompanies(trx, ids);
      const events: EventInsert[] = [];
      for (const change of slice) {
        const companyId = owners.get(change.id);
        if (companyId === undefined) continue;
        const base = { event: kind, companyId, recordId: change.id, occurredAt, dedupeKey: null };
        if (change.change !== 'unchanged') events.push({ ...base, eventType: change.change === 'created' ? 'created' : 'updated' });
        if (kind === 'timesheet' && change.becameApproved) events.push({ ...base, eventType: 'approved' });
      }
      emitted += events.length;
      for (const [i, eventId] of (await insertEvents(trx, events)).entries()) {
        if (eventId !== null) await insertPendingDeliveries(trx, eventId, await subscriptionsFor(events[i]!), occurredAt, newWebhookId);
      }
    }
  }
  return emitted;
}
