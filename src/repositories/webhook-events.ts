import { chunk, ID_CHUNK } from '../shared/chunk.js';
import { isPostgres, type Db, type Queryable } from '../shared/db/knex.js';
import { changesOf, rowsOf } from '../shared/db/statements.js';

/** Takes once-only event keys in the caller's transaction, returning those still free; a key taken is never freed. */
export async function claimEventKeys(trx: Queryable, keys: readonly string[], createdAt: string): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (const part of chunk(keys, ID_CHUNK)) {
    const rows = part.map((key) => ({ dedupe_key: key, created_at: createdAt }));
    const taken = (await trx('webhook_event_keys').insert(rows).onConflict('dedupe_key').ignore().returning('dedupe_key')) as { dedupe_key: string }[];
    for (const row of taken) claimed.add(row.dedupe_key);
  }
  return claimed;
}

/** Which of these once-only keys are taken already (a read, outside any write transaction). */
export async function takenEventKeys(db: Queryable, keys: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunk(keys, ID_CHUNK)) {
    for (const key of (await db('webhook_event_keys').whereIn('dedupe_key', part).pluck('dedupe_key')) as string[]) taken.add(key);
  }
  return taken;
}

export interface EventInsert {
  event: string;
  eventType: string;
  companyId: number;
  recordId: number;
  occurredAt: string;
  dedupeKey: string | null;
}

/** An event as its body is rendered from, with the body once stored (read by the dispatcher and the live tail alike). */
export interface EventRow {
  event_id: number;
  event: string;
  event_type: string;
  company_id: number;
  record_id: number;
  occurred_at: string;
  payload: string | null;
}

/** Writes one event row; null when its dedupe key is already on a stored event. */
export async function insertEvent(trx: Queryable, event: EventInsert): Promise<number | null> {
  const { eventType, companyId, recordId, occurredAt, dedupeKey } = event;
  const row = { event: event.event, event_type: eventType, company_id: companyId, record_id: recordId, occurred_at: occurredAt, dedupe_key: dedupeKey };
  const [inserted] = (await trx('webhook_events').insert(row).onConflict('dedupe_key').ignore().returning('id')) as { id: number }[];
  return inserted === undefined ? null : Number(inserted.id);
}

// One statement per list of licenses: the owner (the staff member's company) is joined in SQL and
// the rows are inserted in the list's order (`json_each`'s key), so no row or owner passes
// through JavaScript. A positive id stands for a created license, a negative one for an updated.
const LICENSE_EVENTS_FROM =
  'INSERT INTO "webhook_events" ("event", "event_type", "company_id", "record_id", "occurred_at", "dedupe_key") ' +
  `SELECT 'license', CASE WHEN j.value > 0 THEN 'created' ELSE 'updated' END, s.company_id, abs(j.value), ?, NULL ` +
  'FROM json_each(?) AS j JOIN "licenses" AS l ON l.security_license_id = abs(j.value) JOIN "staff" AS s ON s.id = l.employee_id ' +
  'ORDER BY j.key';

/**
 * Inside a SQLite transaction: one `license` event per license, in order (`signedIds`: the id for
 * created, minus the id for updated), owned by the company of the license's staff member; a
 * license with no owner gets none. With `returning` the new events come back in the order they
 * were written. Null on PostgreSQL (the caller then writes them one by one).
 */
export async function insertLicenseEvents(
  trx: Queryable,
  signedIds: readonly number[],
  occurredAt: string,
  returning: boolean,
): Promise<{ id: number; companyId: number; eventType: 'created' | 'updated' }[] | null> {
  if (isPostgres(trx)) return null;
  const bindings = [occurredAt, JSON.stringify(signedIds)];
  if (!returning) {
    await trx.raw(LICENSE_EVENTS_FROM, bindings);
    return [];
  }
  const rows = (await trx.raw(`${LICENSE_EVENTS_FROM} RETURNING "id", "company_id", "event_type"`, bindings)) as Record<string, unknown>[];
  // RETURNING gives rows in no promised order; ids grow in the order rows were inserted.
  return rows
    .map((row) => ({ id: Number(row.id), companyId: Number(row.company_id), eventType: row.event_type as 'created' | 'updated' }))
    .sort((a, b) => a.id - b.id);
}

/** Whether any active subscription listens to this event (of any company): when none does, events need no deliveries. */
export async function anyActiveSubscriptionTo(trx: Queryable, event: string): Promise<boolean> {
  const subscriptions = trx('subscriptions as su').join('event_filters as f', 'f.id', 'su.event_filter_id');
  return (await subscriptions.where({ 'f.event': event, 'su.is_active': true }).whereNull('su.deleted_at').first('su.id')) !== undefined;
}

const STORE_PAYLOAD = 'UPDATE webhook_events SET payload = ? WHERE id = ? AND payload IS NULL';
const STORED_PAYLOAD = 'SELECT payload FROM webhook_events WHERE id = ?';

/**
 * Stores a rendered body on its event unless one is there, and returns the body the event keeps:
 * the first stored wins, so every attempt and subscription sends the same bytes. Fixed statements:
 * the dispatcher stores one body per event it sends.
 */
export async function storePayloadOnce(db: Db, eventId: number, body: string): Promise<string> {
  if ((await changesOf(db, STORE_PAYLOAD, [body, eventId])) > 0) return body;
  const [row] = await rowsOf(db, STORED_PAYLOAD, [eventId]);
  return (row?.payload as string | null | undefined) ?? body;
}

