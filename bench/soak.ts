import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { batchAttackerCheck } from './soak/batch-attacker.js';
import { answeredCheck, clientServerErrors, GROWTH_TOLERANCE, importCheck, liveCheck, lostEvents, lostEventsCheck, requestTotal, resourceChecks, serverErrorCheck, signatureCheck, type Check } from './soak/checks.js';
import { Credentials } from './soak/credentials.js';
import { createSoakDatabase, type SoakDatabase } from './soak/database.js';
import { FAN_OUT_SUBSCRIPTIONS, FanOutTenant } from './soak/fan-out.js';
import { DataChanger, SOAK_PAIRS, soakSubscribers, subscribersFile, type SoakPair } from './soak/data.js';
import { ApiClient, RouteTally } from './soak/http-client.js';
import { ImportLanes } from './soak/imports.js';
import { scrapeMetrics, serverErrorsByRoute } from './soak/metrics.js';
import { parseSoakOptions } from './soak/options.js';
import { OutboxReader } from './soak/outbox.js';
import { Receiver, type ReceiverKind } from './soak/receivers.js';
import { checkLines, routeTable, table } from './soak/report.js';
import { runCli, ServerProcess, type ProcessSample } from './soak/server-process.js';
import { LiveStreams } from './soak/streams.js';
import { SubscriptionBook } from './soak/subscriptions.js';
import { Traffic } from './soak/traffic.js';
import { sleep, waitUntil } from './soak/time.js';
import { demoDataSet } from '../src/cli/demo-data.js';

/**
 * `npm run soak -- [--minutes N] [--database-url postgres://…]`: `shiftgate serve` in a child
 * process under a steady, modest mix of REST and GraphQL reads, subscription writes, imports
 * from another process, webhook receivers that fail and hang, and live-event streams; then a
 * drain, and checks that nothing answered 5xx, no event was lost, and descriptors and memory
 * came back to where they were after the warm-up. Exit code 1 when a check fails, 2 when the
 * run itself could not be carried out.
 */

const SUBSCRIPTION_KEY = 'soak-subscription-key';
const WEBHOOK_TIMEOUT_MS = 2000;
const DRAIN_TIMEOUT_MS = 120_000;
/** Per company: two companies, so an import starts about every 4 s. */
const IMPORT_INTERVAL_MS = 8000;
const MAX_RUN_CREATES = 8;
const TOKEN_REFRESH_MS = 60_000;
const PROGRESS_EVERY_MS = 15_000;
/** Retries back off to this interval and then keep it, so no delivery runs out of retries before the drain. */
const RETRY_CAP_SECONDS = 10;

const log = (line: string) => console.log(line);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * Short first retries so failures are retried within the run, then a retry every
 * RETRY_CAP_SECONDS for longer than the whole run and its drain: a delivery to the hanging
 * receiver must still be pending (not `failed`) when the drain makes that receiver answer.
 */
function retrySchedule(totalSeconds: number): string {
  const tail = Math.ceil(totalSeconds / RETRY_CAP_SECONDS);
  return ['0.5', '1', '2', '4', '8', ...Array<string>(tail).fill(String(RETRY_CAP_SECONDS))].join(',');
}

/** Several readings a second apart, lowest of each: a GC or a request in flight should not decide the verdict. */
/** At most this long past the usual end reading for fds and RSS to come back (see settledEndSample). */
const END_SETTLE_MS = 60_000;

async function settledSample(server: ServerProcess, readings = 5): Promise<ProcessSample> {
  await sleep(3000);
  let low: ProcessSample | null = null;
  for (let i = 0; i < readings; i++) {
    const s = server.sample();
    low = low ? { fds: Math.min(low.fds, s.fds), rssBytes: Math.min(low.rssBytes, s.rssBytes) } : s;
    if (i < readings - 1) await sleep(1000);
  }
  if (!low) throw new Error('no reading');
  return low;
}

/**
 * The end reading: settled like the start, then, while fds or RSS are still above the start
 * reading plus the tolerance, one more sample a second for at most END_SETTLE_MS. V8 gives heap
 * pages back only after its memory reducer has seen the process idle for a while, so a short run
 * on a busy machine can end before that; a real leak never comes back, however long this waits.
 */
async function settledEndSample(server: ServerProcess, start: ProcessSample): Promise<{ sample: ProcessSample; waitedMs: number }> {
  let low = await settledSample(server);
  const started = Date.now();
  const settled = () => low.fds <= start.fds * (1 + GROWTH_TOLERANCE) && low.rssBytes <= start.rssBytes * (1 + GROWTH_TOLERANCE);
  while (!settled() && Date.now() - started < END_SETTLE_MS) {
    await sleep(1000);
    const s = server.sample();
    low = { fds: Math.min(low.fds, s.fds), rssBytes: Math.min(low.rssBytes, s.rssBytes) };
  }
  return { sample: low, waitedMs: Date.now() - started };
}

async function main(): Promise<number> {
  const options = parseSoakOptions(process.argv.slice(2));
  const soakMs = Math.round(options.minutes * 60_000);
  const warmupMs = Math.min(20_000, Math.max(5000, Math.round(soakMs * 0.2)));
  const database: SoakDatabase = await createSoakDatabase(options.databaseUrl);
  log(`shiftgate soak: ${options.minutes} min on ${database.backend} after a ${warmupMs / 1000} s warm-up, node ${process.version}, ${cpus().length} CPUs`);

  const subscribers = soakSubscribers();
  const receivers = {} as Record<ReceiverKind, Receiver>;
  for (const kind of ['healthy', 'flaky', 'hanging'] as const) receivers[kind] = await Receiver.start(kind, subscribers.map((s) => s.signingSecret));
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    DATA_DIR: database.dir,
    SUBSCRIPTION_KEYS: SUBSCRIPTION_KEY,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    TOKEN_RATE_LIMIT_PER_MINUTE: '10000',
    WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    WEBHOOK_POLL_INTERVAL_MS: '500',
    WEBHOOK_RETRY_SCHEDULE: retrySchedule((warmupMs + soakMs + 2 * DRAIN_TIMEOUT_MS) / 1000 + 60),
    ...(database.backend === 'postgres' ? { DATABASE_POOL_MAX: '4' } : {}),
  };

  let server: ServerProcess | null = null;
  let reader: OutboxReader | null = null;
  let fanOut: FanOutTenant | null = null;
  const cleanup = async () => {
    await server?.stop().catch(() => undefined);
    await fanOut?.close().catch(() => undefined);
    await reader?.close().catch(() => undefined);
    for (const receiver of Object.values(receivers)) await receiver.close().catch(() => undefined);
    await database.close().catch((error: unknown) => log(`could not remove the run's database: ${String(error)}`));
  };
  const interrupted = () => {
    log('interrupted: stopping the server and removing the database');
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    const started = Date.now();
    server = await ServerProcess.start(env);
    const gateway = server;
    const retries = env.WEBHOOK_RETRY_SCHEDULE?.split(',').length ?? 0;
    log(`webhooks: ${WEBHOOK_TIMEOUT_MS} ms time-out, retries after 0.5, 1, 2, 4, 8 s, then every ${RETRY_CAP_SECONDS} s (${retries} in all)`);
    log(`server pid ${gateway.pid} on ${gateway.baseUrl}; receivers ${Object.values(receivers).map((r) => `${r.kind} ${r.url}`).join(', ')}`);

    // The demo data set is what the run reads and changes; a production-mode server never loads
    // it by itself, so it arrives the way an operator's data would: through an import.
    const demoFile = join(database.dir, 'soak-demo-data.json');
    writeFileSync(demoFile, JSON.stringify(demoDataSet()));
    const demo = await runCli(['import', demoFile], env);
    if (demo.code !== 0) throw new Error(`demo data import failed: ${demo.stderr.trim()}`);
    const setupFile = join(database.dir, 'soak-subscribers.json');
    writeFileSync(setupFile, JSON.stringify(subscribersFile(subscribers)));
    const setup = await runCli(['import', setupFile], env);
    if (setup.code !== 0) throw new Error(`set-up import failed: ${setup.stderr.trim()}`);
    const credentials = await Credentials.create(env);
    const tally = new RouteTally();
    const client = new ApiClient(gateway.baseUrl, SUBSCRIPTION_KEY, tally);
    await credentials.refresh(client);
    const book = new SubscriptionBook(client, credentials, { healthy: receivers.healthy.url, flaky: receivers.flaky.url, hanging: receivers.hanging.url });
    const hangingPairs = new Set<SoakPair>(SOAK_PAIRS.filter((p) => `${p.event}.${p.eventType}` === 'timesheet.approved' || `${p.event}.${p.eventType}` === 'license.updated'));
    for (const subscriber of subscribers) {
      for (const pair of SOAK_PAIRS) {
        for (const kind of ['healthy', 'flaky', 'hanging'] as const) {
          if (kind === 'hanging' && !hangingPairs.has(pair)) continue;
          if (!(await book.create(subscriber, pair, kind))) throw new Error(`could not subscribe ${kind} to ${pair.event}.${pair.eventType}: ${JSON.stringify([...tally.routes.values()].flatMap((r) => r.samples))}`);
        }
      }
    }
    log(`set-up: ${book.all.length} subscriptions for ${subscribers.length} subscribers, 4 API keys, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    fanOut = await FanOutTenant.setUp(env, database.dir);
    const fanOutTenant = fanOut;
    log(`set-up: company 3 with ${FAN_OUT_SUBSCRIPTIONS} subscriptions to license.created, for the fan-out check`);

    reader = new OutboxReader(database.url);
    const outbox = reader;
    const eventsBefore = await outbox.maxEventId();
    const data = new DataChanger();
    const traffic = new Traffic(client, credentials, data, subscribers, book, { workers: 3, pauseMs: 120 });
    const streams = new LiveStreams(gateway.baseUrl, SUBSCRIPTION_KEY, credentials, { parallel: 2, minOpenMs: 4000, maxOpenMs: 15_000 });
    const imports = new ImportLanes(data, env, database.dir, IMPORT_INTERVAL_MS);
    for (const receiver of Object.values(receivers)) receiver.recover();

    let maxFds = 0;
    let maxLag = 0;
    const load = async (ms: number, extras: (tick: number) => Promise<void>) => {
      traffic.start();
      streams.start();
      imports.start();
      const phaseStart = Date.now();
      let lastRefresh = Date.now();
      let lastProgress = Date.now();
      let tick = 0;
      while (Date.now() - phaseStart < ms) {
        await sleep(Math.min(1000, ms - (Date.now() - phaseStart)));
        if (!gateway.running) throw new Error(`the server exited (${gateway.exitStatus}):\n${gateway.lastLines(30).join('\n')}`);
        maxFds = Math.max(maxFds, gateway.sample().fds);
        await extras(tick++);
        if (Date.now() - lastRefresh >= TOKEN_REFRESH_MS) {
          lastRefresh = Date.now();
          await credentials.refresh(client).catch((error: unknown) => log(`token refresh failed: ${String(error)}`));
        }
        if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = Date.now();
          const metrics = await scrapeMetrics(gateway.baseUrl);
          maxLag = Math.max(maxLag, metrics?.dispatcherLagSeconds ?? 0);
          const s = gateway.sample();
          log(
            `  ${Math.round((Date.now() - phaseStart) / 1000)} s: ${requestTotal(tally)} requests, ${imports.stats.runs.length} imports, ${await outbox.pending()} deliveries pending, ` +
              `dispatcher lag ${metrics?.dispatcherLagSeconds?.toFixed(1) ?? '?'} s, ${s.fds} fds, ${mb(s.rssBytes)} MB RSS`,
          );
        }
      }
      await Promise.all([traffic.stop(), streams.stop(), imports.stop()]);
    };
    const drain = async (phase: string): Promise<number> => {
      const drainStart = Date.now();
      const done = await waitUntil(async () => (await outbox.pending()) === 0, DRAIN_TIMEOUT_MS, 500);
      const left = done ? 0 : await outbox.pending();
      log(`${phase}: ${done ? 'nothing pending' : `${left} deliveries still pending`} after ${((Date.now() - drainStart) / 1000).toFixed(1)} s`);
      return Date.now() - drainStart;
    };

    log(`warm-up: ${warmupMs / 1000} s with every receiver healthy`);
    await load(warmupMs, async (tick) => {
      if (tick === 1) await fanOutTenant.warmUp();
    });
    await drain('warm-up drain');
    const baseline = await settledSample(gateway);
    log(`baseline: ${baseline.fds} fds, ${mb(baseline.rssBytes)} MB RSS`);

    receivers.flaky.stats.answers = {};
    receivers.hanging.stats.answers = {};
    for (const receiver of [receivers.flaky, receivers.hanging]) receiver.misbehave();
    log(`soak: ${soakMs / 1000} s, flaky receiver failing half its deliveries, hanging receiver holding them`);
    const soakStart = Date.now();
    const createEvery = Math.max(1, Math.floor(soakMs / 1000 / (MAX_RUN_CREATES + 1)));
    let creates = 0;
    const kinds: ReceiverKind[] = ['healthy', 'flaky', 'healthy', 'hanging'];
    const fanOutTick = Math.max(1, Math.floor(soakMs / 1000 / 3));
    await load(soakMs, async (tick) => {
      if (tick === fanOutTick) fanOutTenant.emit();
      if (tick > 0 && tick % createEvery === 0 && creates < MAX_RUN_CREATES) {
        const subscriber = subscribers[creates % subscribers.length];
        const pair = SOAK_PAIRS[creates % SOAK_PAIRS.length];
        const kind = kinds[creates % kinds.length] ?? 'healthy';
        creates++;
        if (subscriber && pair) await book.create(subscriber, pair, kind);
      }
    });
    await fanOutTenant.settled();
    const soakActualMs = Date.now() - soakStart;

    log('drain: every receiver answers 204 now');
    for (const receiver of Object.values(receivers)) receiver.recover();
    const drainMs = await drain('drain');
    const { sample: end, waitedMs } = await settledEndSample(gateway, baseline);
    if (waitedMs > 0) log(`end reading: waited ${(waitedMs / 1000).toFixed(0)} s more for the process to settle`);
    const metrics = await scrapeMetrics(gateway.baseUrl);
    const snapshot = await outbox.snapshot(book.all.map((s) => s.id));
    const receiverStats = { healthy: receivers.healthy.stats, flaky: receivers.flaky.stats, hanging: receivers.hanging.stats };
    const lost = lostEvents(snapshot, book.all, receiverStats);

    const serverSide = metrics ? serverErrorsByRoute(metrics) : null;
    const serverErrors = serverSide ? [...serverSide.values()].reduce((n, c) => n + c, 0) : null;
    const clientErrors = [...clientServerErrors(tally).values()].reduce((n, c) => n + c, 0);
    const checks: Check[] = [
      serverErrorCheck(tally, serverSide),
      answeredCheck(tally),
      lostEventsCheck(lost),
      signatureCheck(receiverStats),
      importCheck(imports.stats),
      liveCheck(streams.stats, imports.stats, snapshot.events),
      fanOutTenant.check(snapshot, imports.stats),
      ...resourceChecks(baseline, end, receivers.hanging.stats.openResponses),
    ];
    log('batch attacker: a gateway of its own, a key spending its budget on the costliest batches');
    checks.push(await batchAttackerCheck(options.databaseUrl, log));

    log('\nrequests by route (client side)');
    log(routeTable(tally));
    const byState = (state: string) => snapshot.deliveries.filter((d) => d.state === state).length;
    const streamEvents = streams.stats.records.reduce((n, r) => n + r.events, 0);
    const answers = (kind: ReceiverKind) =>
      Object.entries(receivers[kind].stats.answers)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
    log('\nsummary');
    log(
      table(
        ['', 'value'],
        [
          ['backend', database.backend],
          ['duration', `${(warmupMs / 1000).toFixed(0)} s warm-up + ${(soakActualMs / 1000).toFixed(0)} s soak + ${(drainMs / 1000).toFixed(1)} s drain`],
          ['requests', requestTotal(tally)],
          ['5xx + GraphQL internal (client) / 5xx (server metrics)', `${clientErrors} / ${serverErrors ?? 'unavailable'}`],
          ['imports (ok / failed)', `${imports.stats.runs.length - imports.stats.failures} / ${imports.stats.failures}`],
          ['events committed during the run', snapshot.events.filter((e) => e.id > eventsBefore).length],
          ['deliveries (delivered / failed / pending)', `${snapshot.deliveries.length} (${byState('delivered')} / ${byState('failed')} / ${byState('pending')})`],
          ['delivery attempts', snapshot.attempts],
          ['(event, subscription) pairs owed / acknowledged', `${lost.expected} / ${lost.acknowledged}`],
          ['receiver answers, healthy', answers('healthy')],
          ['receiver answers, flaky (soak)', answers('flaky')],
          ['receiver answers, hanging (soak)', answers('hanging')],
          ['duplicate deliveries seen', Object.values(receiverStats).reduce((n, r) => n + r.duplicates, 0)],
          ['live streams / events', `${streams.stats.records.length} / ${streamEvents}`],
          ['subscriptions (created in soak)', `${book.all.length} (${creates})`],
          ['fds start / end (max during run)', `${baseline.fds} / ${end.fds} (${maxFds})`],
          ['RSS MB start / end', `${mb(baseline.rssBytes)} / ${mb(end.rssBytes)}`],
          ['max dispatcher lag seen', `${maxLag.toFixed(1)} s`],
          ['server error log lines', gateway.errorLines],
        ],
      ),
    );
    log('\nchecks');
    log(checkLines(checks));
    if (lost.lost.length > 0) {
      log(`\nfirst lost deliveries: ${lost.lost.slice(0, 5).map((l) => `event ${l.eventId} → subscription ${l.subscriptionId} (${l.receiver}): ${l.why}`).join('; ')}`);
    }
    if (gateway.errorLines > 0) log(`\nlast server error lines:\n${gateway.lastErrors().join('\n')}`);
    const failed = checks.filter((c) => !c.ok);
    log(
      `\nsoak ${failed.length === 0 ? 'PASSED' : 'FAILED'} on ${database.backend} after ${options.minutes} min: ` +
        (failed.length === 0 ? `all ${checks.length} checks passed` : `${failed.length} of ${checks.length} checks failed (${failed.map((c) => c.name).join(', ')})`),
    );
    return failed.length === 0 ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    const stopped = await server?.stop();
    if (stopped && stopped !== '0') log(`server stop: ${stopped}`);
    server = null;
    await cleanup();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`soak: could not complete the run: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
