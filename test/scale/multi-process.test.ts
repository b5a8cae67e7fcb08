import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateLatest, openDatabase, type Db } from '../../src/shared/db/knex.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';
import { seedTenants } from '../support/seed.js';
import { importTimesheets, waitFor } from '../webhooks/support.js';

const BIN = resolve(import.meta.dirname, '../../bin/shiftgate.js');
const CONCURRENCY = 8;
const LEASE_MS = 4000;
const BATCH = 500;

interface Instance {
  name: string;
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  output: string[];
}

/** Starts `shiftgate serve` on an ephemeral port and waits for its "listening on" line. */
function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start:\n${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /listening on (http:\/\/\S+)/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        done({ name, child, pid: child.pid!, baseUrl: match[1]!, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited early (${code ?? signal}):\n${output.join('')}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/**
 * Two `shiftgate serve` processes on one PostgreSQL database, one receiver, and the outbox
 * filled from a third party (the import path, as `shiftgate import` would): every event is
 * delivered, none twice, both processes share the work, and after a kill -9 of one of them
 * mid-run the other finishes its leased deliveries once the leases expire.
 */
describe.skipIf(!onPostgres())('two shiftgate processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let db: Db;
  let receiver: Server;
  let receiverUrl: string;
  let delayMs = 5;
  const received: { webhookId: string; at: number }[] = [];
  const instances: Instance[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = openDatabase(loadConfig(database.env));
    await migrateLatest(db);
    await seedTenants(db);

    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ webhookId: String(req.headers['webhook-id']), at: Date.now() });
        // A little latency per request, like a real receiver, so the run lasts long enough to share and to interrupt.
        setTimeout(() => res.writeHead(204).end(), delayMs);
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // Subscriber 302 (company 1) listens to timesheet/created (event filter 3021).
    const now = new Date().toISOString();
    await db('subscriptions').insert({
      subscriber_id: 302,
      event_filter_id: 3021,
      uri: receiverUrl,
      is_active: true,
      created_date_time: now,
      modified_date_time: now,
    });

    const env = {
      ...database.env,
      PORT: '0',
      SUBSCRIPTION_KEYS: 'multi-process-test-key',
      // Shared by every instance, so a token from one is valid on the other.
      JWT_SECRET: 'multi-process-test-secret-0123456789abcdef',
      WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_MS: String(LEASE_MS),
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2',
      LICENSE_SCAN_INTERVAL_SECONDS: '3600',
      DATABASE_POOL_MAX: '4',
      LOG_LEVEL: 'warn',
    };
    instances.push(...(await Promise.all([startInstance('A', env), startInstance('B', env)])));
  });

  afterAll(async () => {
    for (const instance of instances) {
      if (instance.child.exitCode === null && instance.child.signalCode === null) {
        instance.child.kill('SIGTERM');
        const stopped = await Promise.race([exited(instance.child).then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
        if (!stopped) instance.child.kill('SIGKILL');
      }
    }
    await new Promise<void>((done) => {
      receiver?.closeAllConnections();
      receiver ? receiver.close(() => done()) : done();
    });
    await db?.destroy();
    await database?.close();
  });

  /** Which instance made each delivery's successful attempt, from webhook_attempts.instance_id (`host:pid:…`). */
  async function deliveredBy(): Promise<Record<string, number>> {
    const rows = (await db('webhook_attempts').whereBetween('http_status', [200, 299]).select('instance_id')) as { instance_id: string }[];
    const byName: Record<string, number> = {};
    for (const row of rows) {
      const pid = Number(row.instance_id.split(':')[1]);
      const name = instances.find((i) => i.pid === pid)?.name ?? 'other';
      byName[name] = (byName[name] ?? 0) + 1;
    }
    return byName;
  }

  const timesheets = (from: number) =>
    Array.from({ length: BATCH }, (_, i) => ({ timesheetId: from + i, siteId: 100, employeeId: 1001 }));

  async function allDelivered(expected: number): Promise<boolean> {
    const [row] = (await db('webhook_deliveries').where('state', 'delivered').count({ n: '*' })) as { n: number }[];
    return Number(row!.n) === expected;
  }

  it(`delivers ${BATCH} events exactly once between them, and both processes do part of the work`, async () => {
    await importTimesheets(db, timesheets(100_000));
    await waitFor(() => allDelivered(BATCH), `${BATCH} deliveries`, 120_000);

    const ids = received.map((r) => r.webhookId);
    const expected = (await db('webhook_deliveries').pluck('webhook_id')) as string[];
    expect(new Set(ids)).toEqual(new Set(expected));
    expect(ids.length, 'no webhook-id received twice').toBe(BATCH);
    const split = await deliveredBy();
    console.log(`multi-process: ${BATCH} events delivered; per process ${JSON.stringify(split)}`);
    expect(split.A ?? 0).toBeGreaterThan(0);
    expect(split.B ?? 0).toBeGreaterThan(0);
    expect((split.A ?? 0) + (split.B ?? 0)).toBe(BATCH);
  }, 180_000);

  it('loses nothing when one process is killed with SIGKILL mid-run: the other takes over its leases', async () => {
    const [a, b] = instances as [Instance, Instance];
    const before = received.length;
    delayMs = 20;
    await importTimesheets(db, timesheets(200_000));
    // Mid-run: some of the second batch has arrived, much of it has not.
    await waitFor(() => received.length - before >= 60, 'the second batch to be under way', 60_000);
    a.child.kill('SIGKILL');
    await exited(a.child);
    const killedAt = Date.now();
    const inFlight = (await db('webhook_deliveries')
      .where('state', 'pending')
      .where('lease_owner', 'like', `%:${a.pid}:%`)
      .count({ n: '*' })) as { n: number }[];
    const pendingAtKill = (await db('webhook_deliveries').where('state', 'pending').count({ n: '*' })) as { n: number }[];

    await waitFor(() => allDelivered(2 * BATCH), `all ${2 * BATCH} deliveries after the kill`, 120_000);
    const secondBatch = (await db('webhook_deliveries').where('id', '>', BATCH).pluck('webhook_id')) as string[];
    const got = received.slice(before).map((r) => r.webhookId);
    const missing = secondBatch.filter((id) => !got.includes(id));
    expect(missing, 'no event lost').toEqual([]);
    // At-least-once: a delivery A had sent but not yet recorded when it died is sent again by B.
    const duplicates = got.length - new Set(got).size;
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
    const split = await deliveredBy();
    const lastArrival = Math.max(...received.map((r) => r.at));
    console.log(
      `multi-process kill -9: second batch of ${BATCH} complete; ${Number(pendingAtKill[0]!.n)} pending and ` +
        `${Number(inFlight[0]!.n)} leased by A at the kill; ${duplicates} re-sent; per process overall ${JSON.stringify(split)}; ` +
        `finished ${lastArrival - killedAt} ms after the kill`,
    );
    expect(b.child.exitCode).toBeNull();
    expect(split.B ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
