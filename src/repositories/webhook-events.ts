import { chunk, ID_CHUNK } from '../shared/chunk.js';
import type { Db, Queryable } from '../shared/db/knex.js';
import { withStatements } from '../shared/db/statements.js';

/** Takes once-only event keys in the caller's transaction and returns those that were still free. A key once taken is never freed. */
export async function claimEventKeys(trx: Queryable, keys: readonly string[], createdAt: string): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (const part of chunk(keys, ID_CHUNK)) {
    const rows = (await trx('webhook_event_keys')
      .insert(part.map((key) => ({ dedupe_key: key, created_at: createdAt })))
      .onConflict('dedupe_key')
      .ignore()
      .returning('dedupe_key')) as ({ dedupe_key: string } | string)[];
    for (const row of rows) claimed.add(typeof row === 'object' ? row.dedupe_key : row);
  }
  return claimed;
}

/** Which of these once-only keys are taken already (a read, outside any write transaction). */
export async function takenEventKeys(db: Queryable, keys: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunk(keys, ID_CHUNK)) {
    const rows = (await db('webhook_event_keys').whereIn('dedupe_key', part).select('dedupe_key')) as { dedupe_key: string }[];
    for (const row of rows) taken.add(row.dedupe_key);
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

/** Writes one event row; null when its dedupe key is already on a stored event. */
export async function insertEvent(trx: Queryable, event: EventInsert): Promise<number | null> {
  const [inserted] = (await trx('webhook_events')
    .insert({
      event: event.event,
      event_type: event.eventType,
      company_id: event.companyId,
      record_id: event.recordId,
      occurred_at: event.occurredAt,
      dedupe_key: event.dedupeKey,
    })
    .onConflict('dedupe_key')
    .ignore()
    .returning('id')) as ({ id: number } | number)[];
  if (inserted === undefined) return null;
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}

const STORE_PAYLOAD = 'UPDATE webhook_events SET payload = ? WHERE id = ? AND payload IS NULL';
const STORED_PAYLOAD = 'SELECT payload FROM webhook_events WHERE id = ?';

/** Stores a rendered body on its event unless one is there already, and returns the body kept: every attempt and subscription sends the same bytes. */
export async function storePayloadOnce(db: Db, eventId: number, body: string): Promise<string> {
  return withStatements(db, { transaction: false }, async (sql) => {
    if ((await sql.run(STORE_PAYLOAD, [body, eventId])) > 0) return body;
    const [row] = await sql.all(STORED_PAYLOAD, [eventId]);
    return (row?.payload as string | null | undefined) ?? body;
  });
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
