import { isPostgres, type Queryable } from '../shared/db/knex.js';
import { insertEvent, type EventInsert } from './webhook-events.js';

/** Writes event rows in order, as insertEvent does: each id, or null where the dedupe key is already on a stored event. */
export async function insertEvents(trx: Queryable, events: readonly EventInsert[]): Promise<(number | null)[]> {
  const ids: (number | null)[] = [];
  for (const event of events) ids.push(await insertEvent(trx, event));
  return ids;
}

// One statement per list of licenses: the owner (the staff member's company) is joined in SQL and
// the rows are inserted in the list's order (`json_each`'s key), so no row or owner passes
// through JavaScript. A positive id stands for a created license, a negative one for an updated.
const LICENSE_EVENTS_FROM =
  'INSERT INTO "webhook_events" ("event", "event_type", "company_id", "record_id", "occurred_at", "dedupe_key") ' +
  `SELECT 'license', CASE WHEN j.value > 0 THEN 'created' ELSE 'updated' END, s.company_id, abs(j.value), ?, NULL ` +
  'FROM json_each(?) AS j JOIN "licenses" AS l ON l.security_license_id = abs(j.value) JOIN "staff" AS s ON s.id = l.employee_id ' +
  'ORDER BY j.key';

/** A license event written by insertLicenseEvents. */
export interface InsertedLicenseEvent {
  id: number;
  companyId: number;
  eventType: 'created' | 'updated';
}

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
): Promise<InsertedLicenseEvent[] | null> {
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
  const row = await trx('subscriptions as su')
    .join('event_filters as f', 'f.id', 'su.event_filter_id')
    .where('f.event', event)
    .where('su.is_active', true)
    .whereNull('su.deleted_at')
    .first('su.id');
  return row !== undefined;
}
