import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { defaultConfig } from '../src/config.js';
import { openDatabase, type Db } from '../src/shared/db/knex.js';
import { generateSigningSecret } from '../src/webhooks/signing-secret.js';
import { emitEvent } from '../src/webhooks/outbox.js';
import { ServerProcess } from './servers.js';
import { round } from './stats.js';
import type { ReceiverReport } from './webhook-receiver.js';

export interface DeliveryResult {
  deliveries: number;
  deliveriesPerSecond: number;
  barePosts: number;
  barePostsPerSecond: number;
  deliveryVsBarePost: number;
  latencyDeliveries: number;
  p50Ms: number;
  p99Ms: number;
  pollIntervalMs: number;
  /** Connections of the bare loop: the dispatcher's sends in flight to one host at most. */
  concurrency: number;
  dispatcherRssMB: number;
  /** The dispatcher process's CPU (user + system) from its start to the backlog's last arrival, per delivery. */
  dispatcherCpuMicrosPerDelivery: number;
}

/** Subscriptions to the one receiver: enough that the per-subscription cap does not bind before the per-host one. */
const SUBSCRIPTIONS = 4;
const SUBSCRIBER_ID = 900;
const FILTER_ID = 9000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function fail(message: string): never {
  throw new Error(`delivery check failed: ${message}`);
}

/** Writes `count` timesheet-updated events through the outbox, one transaction each; returns commit times by webhook id. */
async function emit(db: Db, count: number, timesheetIds: readonly number[], pauseMs = 0): Promise<Map<string, number>> {
  const committed = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const recordId = timesheetIds[i % timesheetIds.length]!;
    const eventId = await db.transaction((trx) =>
      emitEvent(trx, { event: 'timesheet', eventType: 'updated', companyId: 1, recordId, occurredAt: new Date().toISOString() }),
    );
    const at = performance.timeOrigin + performance.now();
    const rows = (await db('webhook_deliveries').where('event_id', eventId).select('webhook_id')) as { webhook_id: string }[];
    if (rows.length !== SUBSCRIPTIONS) fail(`event ${eventId} got ${rows.length} deliveries, expected ${SUBSCRIPTIONS}`);
    for (const row of rows) committed.set(row.webhook_id, at);
    // Spread the latency events over the poll interval instead of lining them up with it.
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs * (0.5 + Math.random())));
  }
  return committed;
}

async function waitFor(receiver: ServerProcess, expected: number, limitMs: number): Promise<ReceiverReport> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const report = await receiver.ask<ReceiverReport>({ type: 'report', reset: false });
    if (report.badSignatures > 0) fail(`${report.badSignatures} webhooks failed verification; first: ${report.badSample}`);
    if (report.ids.length >= expected) return receiver.ask<ReceiverReport>({ type: 'report', reset: true });
    if (Date.now() > deadline) fail(`${report.ids.length} of ${expected} deliveries arrived within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function checkIds(report: ReceiverReport, committed: Map<string, number>): void {
  const seen = new Set<string>();
  for (const id of report.ids) {
    if (!committed.has(id)) fail(`unexpected webhook id ${id}`);
    if (seen.has(id)) fail(`webhook ${id} delivered twice`);
    seen.add(id);
  }
  if (seen.size !== committed.size) fail(`${seen.size} of ${committed.size} webhooks arrived`);
}

/** The same number of signed POSTs over `concurrency` keep-alive connections, as fast as the receiver answers. */
async function barePosts(url: string, secret: string, payload: string, count: number, concurrency: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const signer = new Webhook(secret);
  let next = 0;
  const post = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const id = `bare_${n}`;
      const now = new Date();
      const req = request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signer.sign(id, now, payload),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`bare POST answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(payload);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await post(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return count / seconds;
}

/**
 * Webhook delivery end to end: events written through the outbox (emitEvent, one transaction
 * each) into a private copy of the small data set, the gateway from dist/ running its dispatcher
 * with the shipped settings, and a loopback receiver (its own process) verifying every
 * signature. Throughput: a backlog of events drained by the dispatcher, first to last arrival,
 * against a bare keep-alive POST loop to the same receiver with the same payload size and as many
 * connections as the dispatcher may hold to one host. Latency: events committed one at a time
 * while the dispatcher is idle, commit → arrival.
 */
export async function runDelivery(
  smallDb: string,
  options: { events: number; latencyEvents: number; log: (line: string) => void; gatewayExecArgv?: string[] },
): Promise<DeliveryResult> {
  const { log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'shiftgate-bench-delivery-'));
  const file = join(dir, 'delivery.sqlite');
  const source = new Database(smallDb, { readonly: true });
  await source.backup(file);
  source.close();
  const secret = generateSigningSecret();
  const receiver = await ServerProcess.start('receiver', 'receiver', file, { args: ['--secret', secret] });
  let gateway: ServerProcess | undefined;
  const defaults = defaultConfig();
  const db = openDatabase({ database: { client: 'sqlite', filename: file }, poolMin: 0, poolMax: 1, sqliteBusyTimeoutMs: defaults.sqliteBusyTimeoutMs });
  try {
    const setup = new Database(file);
    const created = new Date().toISOString();
    setup.prepare('INSERT INTO subscribers (id, company_id, name, signing_secret) VALUES (?, 1, ?, ?)').run(SUBSCRIBER_ID, 'bench receiver', secret);
    setup.prepare("INSERT INTO event_filters (id, subscriber_id, event, event_type) VALUES (?, ?, 'timesheet', 'updated')").run(FILTER_ID, SUBSCRIBER_ID);
    const subscription = setup.prepare(
      'INSERT INTO subscriptions (subscriber_id, event_filter_id, uri, is_active, created_date_time, modified_date_time) VALUES (?, ?, ?, 1, ?, ?)',
    );
    for (let i = 1; i <= SUBSCRIPTIONS; i++) subscription.run(SUBSCRIBER_ID, FILTER_ID, `${receiver.url}/hooks/${i}`, created, created);
    const timesheetIds = (setup.prepare(
      'SELECT t.timesheet_id AS id FROM timesheets t JOIN sites si ON si.id = t.site_id JOIN customers c ON c.id = si.customer_id WHERE c.company_id = 1 ORDER BY t.timesheet_id LIMIT 2000',
    ).all() as { id: number }[]).map((r) => r.id);
    setup.close();

    // Throughput: the backlog is committed before the dispatcher starts.
    const backlog = await emit(db, options.events, timesheetIds);
    const config = { WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' };
    gateway = await ServerProcess.start('gateway-dispatcher', 'gateway', file, { config, args: ['--dispatcher'], execArgv: options.gatewayExecArgv ?? [] });
    const started = await gateway.stats();
    const drained = await waitFor(receiver, backlog.size, 120_000);
    const done = await gateway.stats();
    const cpuMicros = done.userMicros + done.systemMicros - started.userMicros - started.systemMicros;
    checkIds(drained, backlog);
    const times = [...drained.receivedAt].sort((a, b) => a - b);
    const deliveriesPerSecond = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);

    // Latency: one event at a time, every ~100 ms, with the dispatcher idle between them.
    const latencyCommitted = await emit(db, options.latencyEvents, timesheetIds, 100);
    const arrived = await waitFor(receiver, latencyCommitted.size, 60_000);
    checkIds(arrived, latencyCommitted);
    const latencies = arrived.ids.map((id, i) => arrived.receivedAt[i]! - latencyCommitted.get(id)!).sort((a, b) => a - b);
    const dispatcherRssMB = (await gateway.stats()).rssBytes / (1024 * 1024);

    // The bare loop, with a payload the size of what the dispatcher sent.
    const payload = (await db('webhook_events').whereNotNull('payload').first('payload')) as { payload: string } | undefined;
    const body = payload?.payload ?? JSON.stringify({ padding: 'x'.repeat(1500) });
    const concurrency = Math.min(defaults.webhooks.concurrency, defaults.webhooks.concurrencyPerHost);
    const barePostsPerSecond = await barePosts(`${receiver.url}/hooks/bare`, secret, body, backlog.size, concurrency);
    const bare = await receiver.ask<ReceiverReport>({ type: 'report', reset: true });
    if (bare.badSignatures > 0 || bare.ids.length !== backlog.size) fail(`bare loop: ${bare.ids.length} of ${backlog.size} verified, ${bare.badSignatures} bad`);

    const result: DeliveryResult = {
      deliveries: backlog.size,
      deliveriesPerSecond: round(deliveriesPerSecond, 0),
      barePosts: backlog.size,
      barePostsPerSecond: round(barePostsPerSecond, 0),
      deliveryVsBarePost: round(deliveriesPerSecond / barePostsPerSecond, 3),
      latencyDeliveries: latencies.length,
      p50Ms: round(percentile(latencies, 50), 1),
      p99Ms: round(percentile(latencies, 99), 1),
      pollIntervalMs: defaults.webhooks.pollIntervalMs,
      concurrency,
      dispatcherRssMB: round(dispatcherRssMB, 1),
      dispatcherCpuMicrosPerDelivery: round(cpuMicros / backlog.size, 0),
    };
    log(
      `delivery: ${result.deliveries} webhooks at ${result.deliveriesPerSecond}/s vs bare POST ${result.barePostsPerSecond}/s (${concurrency} connections); ` +
        `commit → received p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (poll interval ${result.pollIntervalMs} ms); ` +
        `dispatcher CPU ${result.dispatcherCpuMicrosPerDelivery} µs/delivery; all signatures and ids checked`,
    );
    return result;
  } finally {
    await gateway?.stop();
    await receiver.stop();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
