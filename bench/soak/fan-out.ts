import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/shared/db/knex.js';
import { demoDataSet } from '../../src/cli/demo-data.js';
import type { Check } from './checks.js';
import type { ImportStats } from './imports.js';
import type { OutboxSnapshot } from './outbox.js';
import { runCli } from './server-process.js';

/** A tenant of its own, which none of the run's other work touches. */
const COMPANY_ID = 3;
/** Two subscribers at the default MAX_SUBSCRIPTIONS_PER_SUBSCRIBER each: 2,000 subscriptions on one pair. */
const SUBSCRIBER_IDS = [931, 932] as const;
const PER_SUBSCRIBER = 1000;
export const FAN_OUT_SUBSCRIPTIONS = SUBSCRIBER_IDS.length * PER_SUBSCRIBER;
const STAFF_ID = 93_001;
const LICENSE_ID = 930_001;

/**
 * The check that one tenant's fan-out breaks no other tenant: company 3 gets 2,000 subscriptions
 * to license.created (written straight into the database at set-up, which is cheap; the API path
 * and its cap have tests of their own), and partway through the soak one import creates a license
 * of that company. The event must reach every one of the 2,000 (a sink receiver counts their
 * webhook ids) while the other companies' imports go on committing events around it.
 */
export class FanOutTenant {
  private readonly seen = new Set<string>();
  private emitted: Promise<void> | null = null;
  private run: { startedAt: number; endedAt: number; ok: boolean; why: string } | null = null;

  private constructor(
    private readonly sink: Server,
    private readonly env: Record<string, string>,
    private readonly dir: string,
  ) {
    sink.on('request', (req, res) => {
      const id = req.headers['webhook-id'];
      if (typeof id === 'string') this.seen.add(id);
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
  }

  static async setUp(env: Record<string, string>, dir: string): Promise<FanOutTenant> {
    const sink = createServer();
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const tenant = new FanOutTenant(sink, env, dir);
    const demo = demoDataSet();
    const person = demo.staff[0];
    if (!person) throw new Error('the demo data set has no staff');
    const file = join(dir, 'soak-fan-out-setup.json');
    writeFileSync(
      file,
      JSON.stringify({
        companies: [{ id: COMPANY_ID, name: 'Fan-out Guarding' }],
        staff: [{ ...person, id: STAFF_ID, companyId: COMPANY_ID }],
        subscribers: SUBSCRIBER_IDS.map((id) => ({
          id,
          companyId: COMPANY_ID,
          name: `fan-out subscriber ${id}`,
          signingSecret: `whsec_${randomBytes(32).toString('base64')}`,
          eventFilters: [{ id: id * 10 + 1, event: 'license', eventType: 'created' }],
        })),
      }),
    );
    const setup = await runCli(['import', file], env);
    if (setup.code !== 0) throw new Error(`fan-out set-up import failed: ${setup.stderr.trim()}`);
    const db = openDatabase({ ...loadConfig({ DATABASE_URL: env.DATABASE_URL }), poolMin: 0, poolMax: 1 });
    try {
      const now = new Date().toISOString();
      const { port } = sink.address() as AddressInfo;
      const rows = SUBSCRIBER_IDS.flatMap((subscriberId) =>
        Array.from({ length: PER_SUBSCRIBER }, (_, i) => ({
          subscriber_id: subscriberId,
          event_filter_id: subscriberId * 10 + 1,
          uri: `http://127.0.0.1:${port}/fan-out/${subscriberId}/${i}`,
          is_active: true,
          created_date_time: now,
          modified_date_time: now,
        })),
      );
      await db.batchInsert('subscriptions', rows, 400);
    } finally {
      await db.destroy();
    }
    return tenant;
  }

  /**
   * The same fan-out once during the warm-up, with a license of its own: the baseline memory
   * reading then follows a first fan-out, and the end reading tells whether a second one kept
   * anything (a first burst of 2,000 sends grows the heap, which V8 keeps for the next).
   */
  async warmUp(): Promise<void> {
    const result = await this.importLicense(LICENSE_ID + 1, 'FAN-0');
    if (result.code !== 0) throw new Error(`fan-out warm-up import failed: ${result.stderr.trim()}`);
  }

  /** Starts the import that creates company 3's license; the soak goes on meanwhile. */
  emit(): void {
    if (this.emitted) return;
    // The warm-up's deliveries were drained before this: only this event's count from here.
    this.seen.clear();
    const startedAt = Date.now();
    this.emitted = this.importLicense(LICENSE_ID, 'FAN-1').then((result) => {
      this.run = { startedAt, endedAt: Date.now(), ok: result.code === 0, why: result.stderr.trim().split('\n')[0] ?? '' };
    });
  }

  private importLicense(securityLicenseId: number, licenseNumber: string): ReturnType<typeof runCli> {
    const license = demoDataSet().licenses[0];
    if (!license) throw new Error('the demo data set has no licenses');
    const file = join(this.dir, `soak-fan-out-${licenseNumber}.json`);
    writeFileSync(
      file,
      JSON.stringify({ licenses: [{ ...license, securityLicenseId, employeeId: STAFF_ID, licenseNumber, expiryDate: '2029-06-01T00:00:00.000Z' }] }),
    );
    return runCli(['import', file], this.env, 60_000);
  }

  /** Waits for the fan-out import, so the drain that follows includes its deliveries. */
  async settled(): Promise<void> {
    await this.emitted;
  }

  check(snapshot: OutboxSnapshot, imports: ImportStats): Check {
    const name = `fan-out of ${FAN_OUT_SUBSCRIPTIONS} subscriptions breaks no other tenant`;
    const run = this.run;
    if (!run) return { name, ok: false, detail: 'the fan-out import never ran' };
    if (!run.ok) return { name, ok: false, detail: `the fan-out import failed: ${run.why.slice(0, 200)}` };
    const events = snapshot.events.filter((e) => e.companyId === COMPANY_ID && e.recordId === LICENSE_ID);
    const eventIds = new Set(events.map((e) => e.id));
    const rows = snapshot.deliveries.filter((d) => eventIds.has(d.eventId));
    const delivered = rows.filter((d) => d.state === 'delivered').length;
    const others = imports.runs.filter((r) => r.ok && r.startedAt >= run.startedAt);
    const problems = [
      events.length === 1 ? '' : `${events.length} events for the license`,
      rows.length === FAN_OUT_SUBSCRIPTIONS ? '' : `${rows.length} delivery rows`,
      delivered === FAN_OUT_SUBSCRIPTIONS ? '' : `${delivered} delivered`,
      this.seen.size >= FAN_OUT_SUBSCRIPTIONS ? '' : `${this.seen.size} webhook ids at the receiver`,
      others.length > 0 ? '' : 'no other company committed an import after it',
    ].filter(Boolean);
    return {
      name,
      ok: problems.length === 0,
      detail:
        problems.length > 0
          ? problems.join('; ')
          : `1 event → ${rows.length} deliveries, import ${((run.endedAt - run.startedAt) / 1000).toFixed(1)} s; ${others.length} other imports committed after it`,
    };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.sink.closeAllConnections();
      this.sink.close(() => resolve());
    });
  }
}
