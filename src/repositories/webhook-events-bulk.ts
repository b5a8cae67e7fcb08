import { SqliteBulk } from '../shared/db/bulk-statements.js';
import type { Queryable } from '../shared/db/knex.js';
import { insertEvent, type EventInsert } from './webhook-events.js';

const INSERT_EVENT =
  'INSERT INTO "webhook_events" ("event", "event_type", "company_id", "record_id", "occurred_at", "dedupe_key") ' +
  'VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ("dedupe_key") DO NOTHING';

/**
 * Writes event rows in order, as insertEvent does one by one: each id, or null where the
 * dedupe key is already on a stored event. Inside a SQLite transaction one prepared statement
 * serves them all.
 */
export async function insertEvents(trx: Queryable, events: readonly EventInsert[]): Promise<(number | null)[]> {
  const bulk = await SqliteBulk.of(trx);
  if (!bulk) {
    const ids: (number | null)[] = [];
    for (const event of events) ids.push(await insertEvent(trx, event));
    return ids;
  }
  return events.map((event) => {
    const { changes, lastInsertRowid } = bulk.run(INSERT_EVENT, [
      event.event,
      event.eventType,
      event.companyId,
      event.recordId,
      event.occurredAt,
      event.dedupeKey,
    ]);
    return changes === 0 ? null : Number(lastInsertRowid);
  });
}
