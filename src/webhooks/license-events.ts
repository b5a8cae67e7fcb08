import { tryTransactionLock } from '../repositories/advisory-locks.js';
import { licensesExpiringBy, type ExpiringLicense } from '../repositories/licenses.js';
import { claimEventKeys, takenEventKeys } from '../repositories/webhook-events.js';
import { isPostgres, type Db, type Queryable } from '../shared/db/knex.js';
import { emitEvent } from './outbox.js';
import { yieldToEventLoop } from '../shared/yield-to-event-loop.js';

const DAY_MS = 24 * 3600 * 1000;

/** The once-only key of a license event: a new expiry date (a renewal) earns new events. */
export function licenseEventKey(licenseId: number, eventType: 'expiring' | 'expired', expiryDate: string): string {
  return `license:${licenseId}:${eventType}:${expiryDate}`;
}

/** Licenses read per step; each step is one short read and at most one write transaction. */
const SCAN_CHUNK = 1000;

type DueEvent = { license: ExpiringLicense; eventType: 'expiring' | 'expired'; key: string };

function dueEvents(licenses: ExpiringLicense[], nowMs: number): DueEvent[] {
  const due: DueEvent[] = [];
  for (const license of licenses) {
    const expiry = Date.parse(license.expiryDate);
    if (Number.isNaN(expiry)) continue;
    const id = license.securityLicenseId;
    if (license.reminder !== null && nowMs >= expiry - license.reminder * DAY_MS) {
      due.push({ license, eventType: 'expiring', key: licenseEventKey(id, 'expiring', license.expiryDate) });
    }
    if (nowMs >= expiry) due.push({ license, eventType: 'expired', key: licenseEventKey(id, 'expired', license.expiryDate) });
  }
  return due;
}

/** Some companies' license events could not be written this round; every other company's were. */
export class LicenseScanFailure extends Error {
  override name = 'LicenseScanFailure';
  constructor(
    readonly companyIds: readonly number[],
    cause: unknown,
  ) {
    super(`license events of ${companyIds.length} compan${companyIds.length === 1 ? 'y' : 'ies'} (${companyIds.join(', ')}) not written; retried next scan`, { cause });
  }
}

/** Writes one company's due events in a transaction of its own; returns how many were written. */
async function emitCompanyEvents(db: Queryable, items: readonly DueEvent[], now: Date): Promise<number> {
  return db.transaction(async (trx) => {
    // Another instance may have taken some keys since they were checked: only the rest are emitted.
    const claimed = await claimEventKeys(
      trx,
      items.map((item) => item.key),
      now.toISOString(),
    );
    let count = 0;
    for (const item of items) {
      if (!claimed.has(item.key)) continue;
      const eventId = await emitEvent(
        trx,
        {
          event: 'license',
          eventType: item.eventType,
          companyId: item.license.companyId,
          recordId: item.license.securityLicenseId,
          occurredAt: now.toISOString(),
          dedupeKey: item.key,
        },
        { keyClaimed: true },
      );
      if (eventId !== null) count++;
    }
    return count;
  });
}

/**
 * Emits license/expiring once when now ≥ expiryDate − reminder days, and license/expired
 * once when now ≥ expiryDate. "Once" is enforced by the database (a unique key per license,
 * event type and expiry date in webhook_event_keys, kept after the event itself is pruned),
 * not by memory, so restarts and several instances scanning at
 * the same time cannot duplicate an event. The table is walked in keyset chunks with a pause
 * between them, so a million licenses never hold the server's event loop for long. Each company's
 * events of a chunk commit on their own: a company whose events cannot be written (its keys go
 * back with them, so the next scan tries again) holds up no other company's, and the walk goes
 * on to the end before it fails with LicenseScanFailure. Returns how many events were written.
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
    const last = rows[rows.length - 1];
    if (!last) break;
    afterId = last.securityLicenseId;
    const due = dueEvents(rows, nowMs);
    if (due.length > 0) {
      const existing = await takenEventKeys(
        db,
        due.map((d) => d.key),
      );
      const byCompany = new Map<number, DueEvent[]>();
      for (const item of due) {
        if (existing.has(item.key)) continue;
        const list = byCompany.get(item.license.companyId);
        if (list) list.push(item);
        else byCompany.set(item.license.companyId, [item]);
      }
      for (const [companyId, items] of byCompany) {
        try {
          written += await emitCompanyEvents(db, items, now);
        } catch (error) {
          if (failed.size === 0) firstFailure = error;
          failed.add(companyId);
        }
      }
    }
    if (rows.length < SCAN_CHUNK) break;
    await yieldToEventLoop();
  }
  if (failed.size > 0) throw new LicenseScanFailure([...failed], firstFailure);
  return written;
}

/**
 * One scan across all instances. On PostgreSQL the scan runs in a transaction holding a
 * transaction-level advisory lock; an instance that cannot take it skips this round, because
 * another one is scanning right now. The key includes the schema, so separate shiftgate
 * databases sharing a server (one schema each) do not hold each other off. The unique dedupe
 * key still guarantees "once" on its own (and on SQLite); the lock only spares the duplicate
 * work. Returns the number of events written, or null when another instance held the lock.
 */
export async function scanLicensesOnce(db: Db, now: Date): Promise<number | null> {
  if (!isPostgres(db)) return scanLicenses(db, now);
  const outcome = await db.transaction(async (trx) => {
    if (!(await tryTransactionLock(trx, 'license-scan'))) return null;
    // Per-company transactions become savepoints inside this one. A company that failed has
    // rolled back to its own savepoint; the others' events still commit with this transaction.
    try {
      return await scanLicenses(trx, now);
    } catch (error) {
      if (error instanceof LicenseScanFailure) return error;
      throw error;
    }
  });
  if (outcome instanceof LicenseScanFailure) throw outcome;
  return outcome;
}
