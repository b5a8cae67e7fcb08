import { isPostgres, type Db } from '../db/knex.js';
import { claimEventKeys, emitEvent } from './outbox.js';

const DAY_MS = 24 * 3600 * 1000;

interface LicenseRow {
  security_license_id: number;
  expiry_date: string;
  reminder: number | null;
  company_id: number;
}

/** The once-only key of a license event: a new expiry date (a renewal) earns new events. */
export function licenseEventKey(licenseId: number, eventType: 'expiring' | 'expired', expiryDate: string): string {
  return `license:${licenseId}:${eventType}:${expiryDate}`;
}

/** Licenses read per step; each step is one short read and at most one write transaction. */
const SCAN_CHUNK = 1000;

/** Lets queued requests run between steps: better-sqlite3 calls block the event loop while they run. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

type DueEvent = { row: LicenseRow; eventType: 'expiring' | 'expired'; key: string };

function dueEvents(rows: LicenseRow[], nowMs: number): DueEvent[] {
  const due: DueEvent[] = [];
  for (const row of rows) {
    const expiry = Date.parse(row.expiry_date);
    if (Number.isNaN(expiry)) continue;
    const id = Number(row.security_license_id);
    if (row.reminder !== null && row.reminder !== undefined && nowMs >= expiry - Number(row.reminder) * DAY_MS) {
      due.push({ row, eventType: 'expiring', key: licenseEventKey(id, 'expiring', row.expiry_date) });
    }
    if (nowMs >= expiry) due.push({ row, eventType: 'expired', key: licenseEventKey(id, 'expired', row.expiry_date) });
  }
  return due;
}

/**
 * Emits license/expiring once when now ≥ expiryDate − reminder days, and license/expired
 * once when now ≥ expiryDate. "Once" is enforced by the database (a unique key per license,
 * event type and expiry date in webhook_event_keys, kept after the event itself is pruned),
 * not by memory, so restarts and several instances scanning at
 * the same time cannot duplicate an event. The table is walked in keyset chunks with a pause
 * between them, so a million licenses never hold the server's event loop for long. Returns
 * how many events were written.
 */
export async function scanLicenses(db: Db, now: Date, maxReminderDays = 3650): Promise<number> {
  const nowMs = now.getTime();
  // Anything expiring within the longest plausible reminder window is a candidate; the exact
  // per-license rule is applied in code, because date arithmetic in SQL is not portable.
  const horizon = new Date(nowMs + maxReminderDays * DAY_MS).toISOString();
  let afterId = 0;
  let written = 0;
  for (;;) {
    const rows = (await db('licenses as l')
      .join('staff as s', 's.id', 'l.employee_id')
      .whereNotNull('l.expiry_date')
      .where('l.expiry_date', '<=', horizon)
      .where('l.security_license_id', '>', afterId)
      .orderBy('l.security_license_id')
      .limit(SCAN_CHUNK)
      .select('l.security_license_id', 'l.expiry_date', 'l.reminder', 's.company_id')) as LicenseRow[];
    const last = rows[rows.length - 1];
    if (!last) return written;
    afterId = Number(last.security_license_id);
    const due = dueEvents(rows, nowMs);
    if (due.length > 0) {
      const existing = new Set<string>();
      for (let i = 0; i < due.length; i += 500) {
        const keys = due.slice(i, i + 500).map((d) => d.key);
        const found = (await db('webhook_event_keys').whereIn('dedupe_key', keys).select('dedupe_key')) as { dedupe_key: string }[];
        for (const row of found) existing.add(row.dedupe_key);
      }
      const fresh = due.filter((item) => !existing.has(item.key));
      if (fresh.length > 0) {
        written += await db.transaction(async (trx) => {
          // Another instance may have taken some keys since the check above: only the rest are emitted.
          const claimed = await claimEventKeys(
            trx,
            fresh.map((item) => item.key),
            now.toISOString(),
          );
          let count = 0;
          for (const item of fresh) {
            if (!claimed.has(item.key)) continue;
            const eventId = await emitEvent(
              trx,
              {
                event: 'license',
                eventType: item.eventType,
                companyId: Number(item.row.company_id),
                recordId: Number(item.row.security_license_id),
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
    }
    if (rows.length < SCAN_CHUNK) return written;
    await yieldToEventLoop();
  }
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
  return db.transaction(async (trx) => {
    const { rows } = (await trx.raw(
      "select pg_try_advisory_xact_lock(hashtext(current_schema() || ':shiftgate:license-scan')) as locked",
    )) as { rows: { locked: boolean }[] };
    if (!rows[0]?.locked) return null;
    // Per-license transactions become savepoints inside this one.
    return scanLicenses(trx, now);
  });
}

/** Runs the scan at start-up and then every interval; a failed scan is logged and retried next time. */
export class LicenseScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly db: Db,
    private readonly intervalSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = scanLicensesOnce(this.db, new Date(this.now()))
        .catch((error: unknown) => console.error('license scheduler:', error instanceof Error ? error.message : error))
        .finally(() => {
          this.running = null;
        });
    };
    tick();
    this.timer = setInterval(tick, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
