import { randomBytes } from 'node:crypto';
import { ownerCompanies } from '../repositories/organisation.js';
import { activeSubscriptionIdsFor } from '../repositories/subscriptions.js';
import { insertPendingDeliveries } from '../repositories/webhook-deliveries.js';
import { insertEvent, type EventInsert } from '../repositories/webhook-events.js';
import type { Queryable } from '../shared/db/knex.js';
import type { CatalogEvent } from './catalog.js';

export interface NewEvent {
  event: CatalogEvent;
  eventType: string;
  companyId: number;
  recordId: number;
  occurredAt: string;
  /** The once-only key of an event that may happen only once, just taken by the caller with claimEventKeys (it outlives the event row). */
  dedupeKey?: string;
}

export function newWebhookId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * Writes an event and one pending delivery per subscription it reaches (activeSubscriptionIdsFor),
 * in the caller's transaction. Returns the event id, or null when its key is already on a stored event.
 */
export async function emitEvent(trx: Queryable, input: NewEvent): Promise<number | null> {
  const eventId = await insertEvent(trx, { ...input, dedupeKey: input.dedupeKey ?? null });
  if (eventId === null) return null;
  await insertPendingDeliveries(trx, eventId, await activeSubscriptionIdsFor(trx, input), input.occurredAt, newWebhookId);
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
 * Turns a write's changes into events inside the same transaction: created/updated per
 * record, plus timesheet/approved when a status became Approved. Unchanged records emit
 * nothing, so re-importing identical data is silent. The result is what emitEvent would write
 * event by event, in the same order; the matching subscriptions are looked up once per
 * company and event pair, since they cannot change inside the transaction.
 */
export async function emitDataEvents(trx: Queryable, changes: DataChanges, now: Date = new Date()): Promise<number> {
  const occurredAt = now.toISOString();
  const subscriptions = new Map<string, number[]>();
  const subscriptionsFor = async (match: { companyId: number; event: string; eventType: string }) => {
    const key = `${match.companyId}\u0000${match.event}\u0000${match.eventType}`;
    const ids = subscriptions.get(key) ?? (await activeSubscriptionIdsFor(trx, match));
    subscriptions.set(key, ids);
    return ids;
  };
  let emitted = 0;
  for (const kind of ['timesheet', 'license'] as const) {
    const list = (kind === 'timesheet' ? changes.timesheets : changes.licenses) ?? [];
    const touched = list.filter((c) => c.change !== 'unchanged' || c.becameApproved);
    for (let start = 0; start < touched.length; start += CHANGES_PER_SLICE) {
      const slice = touched.slice(start, start + CHANGES_PER_SLICE);
      const ids = slice.map((c) => c.id);
      const owners = await ownerCompanies(trx, kind === 'timesheet' ? 'timesheets' : 'licenses', ids);
      const events: EventInsert[] = [];
      for (const change of slice) {
        const companyId = owners.get(change.id);
        if (companyId === undefined) continue;
        const base = { event: kind, companyId, recordId: change.id, occurredAt, dedupeKey: null };
        if (change.change !== 'unchanged') events.push({ ...base, eventType: change.change === 'created' ? 'created' : 'updated' });
        if (kind === 'timesheet' && change.becameApproved) events.push({ ...base, eventType: 'approved' });
      }
      for (const event of events) {
        emitted++;
        const eventId = await insertEvent(trx, event);
        if (eventId !== null) await insertPendingDeliveries(trx, eventId, await subscriptionsFor(event), occurredAt, newWebhookId);
      }
    }
  }
  return emitted;
}
