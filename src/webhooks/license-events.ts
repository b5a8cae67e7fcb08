import { tryTransactionLock } from '../repositories/advisory-locks.js';
import { licensesExpiringBy, type ExpiringLicense } from '../repositories/licenses.js';
import { claimEventKeys, takenEventKeys } from '../repositories/webhook-events.js';
import { groupById } from '../shared/db/columns.js';
import { isPostgres, type Db, type Queryable } from '../shared/db/knex.js';
import { emitEvent } from './outbox.js';
import { yieldToEventLoop } from '../shared/yield-to-event-loop.js';
import { DAY_MS } from '../shared/clock.js';

/** Licenses read per step; each step is one short read and at most one write transaction per company. */
const SCAN_CHUNK = 1000;

type DueEvent = { license: ExpiringLicense; eventType: 'expiring' | 'expired'; key: string };

/** The events due for these licenses, each with its once-only key: a new expiry date (a renewal) earns new events. */
function dueEvents(licenses: ExpiringLicense[], nowMs: number): DueEvent[] {
  const due: DueEvent[] = [];
  for (const license of licenses) {
    const expiry = Date.parse(license.expiryDate);
    if (Number.isNaN(expiry)) continue;
    const event = (eventType: DueEvent['eventType']) => ({ license, eventType, key: `license:${license.securityLicenseId}:${eventType}:${license.expiryDate}` });
    if (license.reminder !== null && nowMs >= expiry - license.reminder * DAY_MS) due.push(event('expiring'));
    if (nowMs >= expiry) due.push(event('expired'));
  }
  return due;
}

/** Some companies' license events could not be written this round; every other company's were. */
class LicenseScanFailure extends Error {
  override name = 'LicenseScanFailure';
  constructor(companyIds: readonly number[], cause: unknown) {
    super(`license events of ${companyIds.length} compan${companyIds.length === 1 ? 'y' : 'ies'} (${companyIds.join(', ')}) not written; retried next scan`, { cause });
  }
}

/** Writes one company's due events in a transaction of its own; returns how many were written. */
async function emitCompanyEvents(db: Queryable, items: readonly DueEvent[], now: Date): Promise<number> {
  const occurredAt = now.toISOString();
  return db.transaction(async (trx) => {
    // Another instance may have taken some keys since they were checked: only the rest are emitted.
    const claimed = await claimEventKeys(trx, items.map((item) => item.key), occurredAt);
    let count = 0;
    for (const { license, eventType, key } of items) {
      if (!claimed.has(key)) continue;
      const event = { event: 'license', eventType, companyId: license.companyId, recordId: license.securityLicenseId, occurredAt, dedupeKey: key } as const;
      if ((await emitEvent(trx, event)) !== null) count++;
    }
    return count;
  });
}

/**
 * Emits license/expiring once when now ≥ expiryDate − reminder days, and license/expired once
 * when now ≥ expiryDate; "once" is a unique key per license, event type and expiry date in
 * webhook_event_keys. The table is walked in keyset chunks with a pause between them. Each
 * company's events commit on their own: one that fails (its keys go back) holds up no other, and
 * the walk goes on before it fails with LicenseScanFailure. Returns how many events were written.
 */
export async function scanLicenses(db: Queryable, now: Date, maxReminderDays = 3650): Promise<number> {
  const nowMs = now.getTime();
  // Anything expiring within the longest plausible reminder window is a candidate; the exact
  // per-license rule is applied in code, because date arithmetic in SQL is not portable.
  const horizon = new Date(nowMs + maxReminderDays * DAY_MS).toISOString();
  let afterId = 0;
  let written = 0;
  const failed = new Set<number>();
  let firstFailure: unknown;
  for (;;) {
    const rows = await licensesExpiringBy(db, horizon, afterId, SCAN_CHUNK);
    const last = rows.at(-1);
    if (!last) break;
    afterId = last.securityLicenseId;
    const due = dueEvents(rows, nowMs);
    const taken = due.length > 0 ? await takenEventKeys(db, due.map((d) => d.key)) : new Set<string>();
    const fresh = due.filter((item) => !taken.has(item.key));
    const companyIds = [...new Set(fresh.map((item) => item.license.companyId))];
    for (const [i, items] of groupById(companyIds, fresh, (item) => item.license.companyId).entries()) {
      try {
        written += await emitCompanyEvents(db, items, now);
      } catch (error) {
        if (failed.size === 0) firstFailure = error;
        failed.add(companyIds[i]!);
      }
    }
    if (rows.length < SCAN_CHUNK) break;
    await yieldToEventLoop();
  }
  if (failed.size > 0) throw new LicenseScanFailure([...failed], firstFailure);
  return written;
}

/**
 * One scan across all instances: on PostgreSQL under an advisory lock, which an instance that
 * cannot take it skips this round (the keys alone guarantee "once"; the lock spares the work).
 * Returns the number of events written, or null when another instance held the lock.
 */
export async function scanLicensesOnce(db: Db, now: Date): Promise<number | null> {
  if (!isPostgres(db)) return scanLicenses(db, now);
  const outcome = await db.transaction(async (trx) => {
    if (!(await tryTransactionLock(trx, 'license-scan'))) return null;
    // Per-company transactions become savepoints inside this one. A company that failed has
    // rolled back to its own savepoint; the others' events still commit with this transaction.
    return scanLicenses(trx, now).catch((error: unknown) => {
      if (error instanceof LicenseScanFailure) return error;
      throw error;
    });
  });
  if (outcome instanceof LicenseScanFailure) throw outcome;
  return outcome;
}
