import type { Tx } from '../shared/db/knex.js';
import type { ImportChanges, LicenseChange } from './outcomes.js';
import { emitDataEvents, newWebhookId, type RecordChange } from '../webhooks/outbox.js';
import { anyActiveSubscriptionTo, insertLicenseEvents } from '../repositories/webhook-events.js';
import { activeSubscriptionIdsFor } from '../repositories/subscriptions.js';
import { insertPendingDeliveries } from '../repositories/webhook-deliveries.js';

const asChange = (outcome: 'inserted' | 'updated' | 'unchanged'): RecordChange['change'] =>
  outcome === 'inserted' ? 'created' : outcome === 'updated' ? 'changed' : 'unchanged';

/** Licenses per statement of the SQLite path (one JSON text of ids each). */
const LICENSES_PER_STATEMENT = 5_000;

/**
 * The license events of one part on SQLite, exactly as emitDataEvents writes them, a few thousand
 * per statement with the owners joined in SQL; false, nothing written, where that path is not available.
 */
async function emitLicenseEventsInBulk(trx: Tx, licenses: readonly LicenseChange[], occurredAt: string): Promise<boolean> {
  const signed: number[] = [];
  for (const change of licenses) {
    if (change.outcome === 'inserted') signed.push(change.securityLicenseId);
    else if (change.outcome === 'updated') signed.push(-change.securityLicenseId);
  }
  if (signed.length === 0) return true;
  const subscribed = await anyActiveSubscriptionTo(trx, 'license');
  const subscriptions = new Map<string, number[]>();
  for (let start = 0; start < signed.length; start += LICENSES_PER_STATEMENT) {
    const events = await insertLicenseEvents(trx, signed.slice(start, start + LICENSES_PER_STATEMENT), occurredAt, subscribed);
    if (events === null) return false;
    for (const { id, companyId, eventType } of events) {
      const key = `${companyId}\u0000${eventType}`;
      let ids = subscriptions.get(key);
      if (!ids) {
        ids = await activeSubscriptionIdsFor(trx, { companyId, event: 'license', eventType });
        subscriptions.set(key, ids);
      }
      await insertPendingDeliveries(trx, id, ids, occurredAt, newWebhookId);
    }
  }
  return true;
}

/** The import's `onChanges` hook: events go into the import's own transaction (the outbox). */
export async function emitImportEvents(trx: Tx, changes: ImportChanges, now: Date = new Date()): Promise<void> {
  const timesheets = changes.timesheets.map((c) => ({ id: c.timesheetId, change: asChange(c.outcome), becameApproved: c.becameApproved }));
  // Timesheets first, then licenses, each in file order, all with one time: as emitDataEvents
  // writes a part given both.
  await emitDataEvents(trx, { timesheets }, now);
  if (await emitLicenseEventsInBulk(trx, changes.licenses, now.toISOString())) return;
  await emitDataEvents(trx, { licenses: changes.licenses.map((c) => ({ id: c.securityLicenseId, change: asChange(c.outcome) })) }, now);
}
