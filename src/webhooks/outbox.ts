import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { CatalogEvent } from './catalog.js';

type Queryable = Db | Knex.Transaction;

export interface NewEvent {
  event: CatalogEvent;
  eventType: string;
  companyId: number;
  recordId: number;
  occurredAt: string;
  /**
   * Events that may happen only once carry a key; a second emit with it is ignored. The key is
   * kept in webhook_event_keys, which outlives the event row (retention deletes old events).
   */
  dedupeKey?: string;
}

export function newWebhookId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * Takes once-only event keys in the caller's transaction, a few hundred per statement, and
 * returns those that were still free. A key once taken is never freed.
 */
export async function claimEventKeys(trx: Queryable, keys: readonly string[], createdAt: string): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = (await trx('webhook_event_keys')
      .insert(keys.slice(i, i + 500).map((key) => ({ dedupe_key: key, created_at: createdAt })))
      .onConflict('dedupe_key')
      .ignore()
      .returning('dedupe_key')) as ({ dedupe_key: string } | string)[];
    for (const row of rows) claimed.add(typeof row === 'object' ? row.dedupe_key : row);
  }
  return claimed;
}

/**
 * Writes an event and one pending delivery per matching subscription, in the caller's
 * transaction. Matching means: active, bound to this event/eventType pair, and owned by a
 * subscriber of the company that owns the record — so another company never sees it.
 * Returns the event id, or null when the dedupe key was already used. `keyClaimed` says the
 * caller has just taken the key itself with claimEventKeys.
 */
export async function emitEvent(trx: Queryable, input: NewEvent, options: { keyClaimed?: boolean } = {}): Promise<number | null> {
  if (input.dedupeKey !== undefined && !options.keyClaimed) {
    const claimed = await claimEventKeys(trx, [input.dedupeKey], input.occurredAt);
    if (claimed.size === 0) return null;
  }
  const [inserted] = (await trx('webhook_events')
    .insert({
      event: input.event,
      event_type: input.eventType,
      company_id: input.companyId,
      record_id: input.recordId,
      occurred_at: input.occurredAt,
      dedupe_key: input.dedupeKey ?? null,
    })
    .onConflict('dedupe_key')
    .ignore()
    .returning('id')) as ({ id: number } | number)[];
  if (inserted === undefined) return null;
  const eventId = Number(typeof inserted === 'object' ? inserted.id : inserted);
  const subscriptions = (await trx('subscriptions as su')
    .join('subscribers as sb', 'sb.id', 'su.subscriber_id')
    .join('event_filters as f', 'f.id', 'su.event_filter_id')
    .where('sb.company_id', input.companyId)
    .where('f.event', input.event)
    .where('f.event_type', input.eventType)
    .where('su.is_active', true)
    .select('su.id')) as { id: number }[];
  if (subscriptions.length > 0) {
    await trx('webhook_deliveries').insert(
      subscriptions.map((s) => ({
        event_id: eventId,
        subscription_id: Number(s.id),
        webhook_id: newWebhookId(),
        state: 'pending',
        attempt_count: 0,
        next_attempt_at: input.occurredAt,
        created_at: input.occurredAt,
      })),
    );
  }
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

async function companiesOf(trx: Queryable, kind: 'timesheet' | 'license', ids: number[]): Promise<Map<number, number>> {
  const owners = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = (
      kind === 'timesheet'
        ? await trx('timesheets as t')
            .join('sites as si', 'si.id', 't.site_id')
            .join('customers as c', 'c.id', 'si.customer_id')
            .whereIn('t.timesheet_id', chunk)
            .select('t.timesheet_id as id', 'c.company_id')
        : await trx('licenses as l')
            .join('staff as s', 's.id', 'l.employee_id')
            .whereIn('l.security_license_id', chunk)
            .select('l.security_license_id as id', 's.company_id')
    ) as { id: number; company_id: number }[];
    for (const row of rows) owners.set(Number(row.id), Number(row.company_id));
  }
  return owners;
}

/**
 * Turns a write's changes into events inside the same transaction: created/updated per
 * record, plus timesheet/approved when a status became Approved. Unchanged records emit
 * nothing, so re-importing identical data is silent.
 */
export async function emitDataEvents(trx: Queryable, changes: DataChanges, now: Date = new Date()): Promise<number> {
  const occurredAt = now.toISOString();
  let emitted = 0;
  for (const kind of ['timesheet', 'license'] as const) {
    const list = (kind === 'timesheet' ? changes.timesheets : changes.licenses) ?? [];
    const touched = list.filter((c) => c.change !== 'unchanged' || c.becameApproved);
    if (touched.length === 0) continue;
    const owners = await companiesOf(
      trx,
      kind,
      touched.map((c) => c.id),
    );
    for (const change of touched) {
      const companyId = owners.get(change.id);
      if (companyId === undefined) continue;
      const base = { event: kind, companyId, recordId: change.id, occurredAt };
      if (change.change !== 'unchanged') {
        await emitEvent(trx, { ...base, eventType: change.change === 'created' ? 'created' : 'updated' });
        emitted++;
      }
      if (kind === 'timesheet' && change.becameApproved) {
        await emitEvent(trx, { ...base, eventType: 'approved' });
        emitted++;
      }
    }
  }
  return emitted;
}

/** Whether a timesheet status counts as Approved (the contract leaves the values open). */
export function isApprovedStatus(status: unknown): boolean {
  return typeof status === 'string' && status.trim().toLowerCase() === 'approved';
}
