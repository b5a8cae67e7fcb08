import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cpus } from 'node:os';
import { ensureDataset } from './dataset.js';
import { runDelivery, type DeliveryResult } from './delivery.js';
import { runImportBench } from './import-bench.js';
import { startPgBench } from './pg-bench.js';
import { LoadFailure, measure } from './measure.js';
import { parseOptions, type BenchGroup } from './options.js';
import { pairedRatio, summarize, table, targetsTable, type Rounds, type ScenarioSummary, type Target } from './report.js';
import { buildScenarios, LICENSE_PAGE_SIZE, type Scenario, type Servers } from './scenarios.js';
import { buildTimesheetListScenarios, TIMESHEET_PAGE_SIZE } from './scenarios-timesheet-list.js';
import { ServerProcess } from './servers.js';
import { round } from './stats.js';

/**
 * `npm run bench [-- --quick]`: generates (or reuses) the data set, starts the gateway (on
 * the 10k and the 1M files), the raw baseline and the GraphQL peers in child processes,
 * checks they agree byte for byte, then loads each group of scenarios in alternating rounds.
 * Every target prints as met or MISSED beside its threshold; none fails the run.
 */

const options = parseOptions(process.argv.slice(2));
const log = (line: string) => console.log(line);
const startedAt = performance.now();
const wants = (group: BenchGroup): boolean => options.only === null || options.only.has(group);
/** A scenario's median, NaN when its group did not run (`--only`). */
const medianOf = (summaries: Record<string, ScenarioSummary>, id: string, metric: 'sqlPerRequest'): number => summaries[id]?.[metric].median ?? Number.NaN;

async function runGroup(name: string, scenarios: Scenario[], rounds: Rounds): Promise<void> {
  const load = { connections: options.connections };
  // Warm-up: every scenario once (JIT, caches, page cache), not recorded.
  for (const scenario of scenarios) await measure(scenario, { ...load, seconds: options.warmupSeconds });
  for (let r = 0; r < options.rounds; r++) {
    // Every other round runs the group backwards (A B C, C B A, …): a machine that drifts
    // faster or slower over a round then favours each side of a pair equally often.
    const order = r % 2 === 0 ? scenarios : [...scenarios].reverse();
    for (const scenario of order) {
      const m = await measure(scenario, { ...load, seconds: options.seconds });
      const entry = rounds.get(scenario.id) ?? { label: scenario.label, rounds: [] };
      entry.rounds.push(m);
      rounds.set(scenario.id, entry);
    }
    log(`  ${name}: round ${r + 1}/${options.rounds} done`);
  }
}

async function main(): Promise<number> {
  if (options.only) log(`only: ${[...options.only].join(', ')}`);
  log(`shiftgate bench${options.quick ? ' (quick)' : ''}: ${options.rounds} rounds × ${options.seconds} s, ${options.connections} connections, node ${process.version}, ${cpus().length} CPUs`);
  // The gateway child runs the compiled dist/, as bin/shiftgate.js does: build it first
  // (incremental, a few seconds when nothing changed).
  log('building dist/ (npm run build)…');
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const dataset = await ensureDataset({ regenerate: options.regenerate, log });
  const started: ServerProcess[] = [];
  const start = async (name: string, kind: 'gateway' | 'raw' | 'peer' | 'mercurius' | 'mercuriusPlain', db: string) => {
    const server = await ServerProcess.start(name, kind, db);
    started.push(server);
    return server;
  };
  try {
    const needsServers = (['timesheet', 'licensePage', 'scale', 'timesheetList', 'postgres'] as const).some(wants);
    const rounds: Rounds = new Map();
    let gatewayScenarios: Scenario[] = [];
    let timesheetIdsInScope: unknown = null;
    if (needsServers) {
      const [gateway, gateway1m, gatewayTimesheets1m, raw, peer, mercurius, mercuriusPlain] = await Promise.all([
        start('gateway', 'gateway', dataset.small),
        start('gateway-1m', 'gateway', dataset.large),
        start('gateway-timesheets-1m', 'gateway', dataset.timesheetsLarge),
        start('raw', 'raw', dataset.small),
        start('peer', 'peer', dataset.small),
        start('mercurius', 'mercurius', dataset.small),
        start('mercurius-plain', 'mercuriusPlain', dataset.small),
      ]);
      const servers: Servers = { gateway, gateway1m, raw, peer, mercurius, mercuriusPlain };
      const groups = await buildScenarios(servers, dataset.small, log);
      const timesheetList = await buildTimesheetListScenarios({ gateway, gatewayTimesheets1m }, dataset.small, log);
      timesheetIdsInScope = groups.timesheetIdsInScope;

      if (wants('timesheet')) await runGroup('timesheet', groups.timesheet, rounds);
      if (wants('licensePage')) await runGroup('license page', groups.licensePage, rounds);
      if (wants('scale')) await runGroup('scale', groups.scale, rounds);
      if (wants('timesheetList')) await runGroup('timesheet list', timesheetList, rounds);
      if (wants('postgres')) {
        const postgres = await startPgBench(dataset.small, groups.licensePageExpected, log);
        try {
          await runGroup('postgres', postgres.scenarios, rounds);
        } finally {
          await postgres.close();
        }
    }
    // Every scenario served by a gateway process (REST and GraphQL share one process per file).
    const gateways = new Set([gateway, gateway1m, gatewayTimesheets1m]);
    gatewayScenarios = [...groups.timesheet, ...groups.licensePage, ...groups.scale, ...timesheetList].filter((s) => gateways.has(s.server) && rounds.has(s.id));
    }
    const noDelivery: Pick<DeliveryResult, 'deliveryVsBarePost' | 'p50Ms' | 'p99Ms' | 'pollIntervalMs'> = { deliveryVsBarePost: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN, pollIntervalMs: Number.NaN };
    const delivery = !wants('delivery') ? noDelivery : await runDelivery(dataset.small, { events: options.deliveryEvents, latencyEvents: options.quick ? 20 : 100, log });
    // An import that fails (a crash, a wrong row) fails the run, but only after the results of
    // everything else are written, with the import's keys null and its error beside them.
    let importError: string | null = null;
    const importRun = !wants('import') ? null : await runImportBench(dataset.small, dirname(dataset.small), { count: options.importRecords, log }).catch((error: unknown) => {
      importError = error instanceof Error ? error.message : String(error);
      log(`import failed: ${importError}`);
      return null;
    });

    const summaries = summarize(rounds);
    const ratios = {
      restVsRaw: pairedRatio(rounds, 'timesheet.rest', 'timesheet.raw', 'requestsPerSecond'),
      graphqlVsMercuriusPlain: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.mercuriusPlain', 'requestsPerSecond'),
      graphqlVsMercurius: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.mercurius', 'requestsPerSecond'),
      graphqlVsRaw: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.raw', 'requestsPerSecond'),
      graphqlVsYoga: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.peer', 'requestsPerSecond'),
      licensePage1MVs10k: pairedRatio(rounds, 'scale.1m', 'scale.10k', 'p50Ms'),
      pgRestVsRaw: pairedRatio(rounds, 'pgLicensePage.rest', 'pgLicensePage.raw', 'requestsPerSecond'),
      timesheetList1MVs10k: pairedRatio(rounds, 'timesheetList.1m', 'timesheetList.10k', 'p50Ms'),
      timesheetListFiltered1MVs10k: pairedRatio(rounds, 'timesheetListFiltered.1m', 'timesheetListFiltered.10k', 'p50Ms'),
      deliveryVsBarePost: delivery.deliveryVsBarePost,
      importVsRawInsert: importRun?.importVsRawInsert ?? null,
      importJsonVsRawInsert: importRun?.importJsonVsRawInsert ?? null,
      // Context for the ones above: server CPU per read, gateway ÷ baseline (above 1: the gateway spends more).
      licenseRestVsRaw: pairedRatio(rounds, 'licensePage.rest', 'licensePage.raw', 'requestsPerSecond'),
      licenseGraphqlVsYoga: pairedRatio(rounds, 'licensePage.graphql', 'licensePage.peer', 'requestsPerSecond'),
      restCpuVsRawCpu: pairedRatio(rounds, 'timesheet.rest', 'timesheet.raw', 'cpuMicrosPerRequest'),
      graphqlCpuVsMercuriusPlainCpu: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.mercuriusPlain', 'cpuMicrosPerRequest'),
      graphqlCpuVsMercuriusCpu: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.mercurius', 'cpuMicrosPerRequest'),
      graphqlCpuVsRawCpu: pairedRatio(rounds, 'timesheet.graphql', 'timesheet.raw', 'cpuMicrosPerRequest'),
    };
    const sqlPerLicensePage = {
      rest: medianOf(summaries, 'licensePage.rest', 'sqlPerRequest'),
      graphql: medianOf(summaries, 'licensePage.graphql', 'sqlPerRequest'),
    };
    const sqlPerTimesheetPage = {
      rest: medianOf(summaries, 'timesheetList.10k', 'sqlPerRequest'),
      graphql: medianOf(summaries, 'timesheetList.graphql', 'sqlPerRequest'),
    };
    const rssMB = gatewayScenarios.length === 0 ? Number.NaN : round(Math.max(...gatewayScenarios.map((s) => summaries[s.id]!.rssMB.max)), 1);
    const reported = (value: number): Target => ({ value, target: 'reported', met: true });
    const atLeast = (value: number, bound: number, note = ''): Target => ({ value, target: `≥ ${bound}${note}`, met: value >= bound });
    const atMost = (value: number, bound: number, note = ''): Target => ({ value, target: `≤ ${bound}${note}`, met: value <= bound });
    const targets: Record<string, Target> = {
      restVsRaw: atLeast(ratios.restVsRaw, 0.5),
      restCpuVsRawCpu: reported(ratios.restCpuVsRawCpu),
      graphqlVsMercuriusPlain: atLeast(ratios.graphqlVsMercuriusPlain, 0.65),
      graphqlCpuVsMercuriusPlainCpu: reported(ratios.graphqlCpuVsMercuriusPlainCpu),
      graphqlVsMercurius: reported(ratios.graphqlVsMercurius),
      graphqlCpuVsMercuriusCpu: reported(ratios.graphqlCpuVsMercuriusCpu),
      graphqlVsRaw: reported(ratios.graphqlVsRaw),
      graphqlVsYoga: reported(ratios.graphqlVsYoga),
      sqlPerLicensePageRest: atMost(sqlPerLicensePage.rest, 2),
      sqlPerLicensePageGql: atMost(sqlPerLicensePage.graphql, 2),
      sqlPerTimesheetPageRest: atMost(sqlPerTimesheetPage.rest, 2),
      sqlPerTimesheetPageGql: atMost(sqlPerTimesheetPage.graphql, 2),
      licensePage1MVs10k: atMost(ratios.licensePage1MVs10k, 1.5),
      timesheetList1MVs10k: atMost(ratios.timesheetList1MVs10k, 1.5),
      timesheetListFiltered1MVs10k: atMost(ratios.timesheetListFiltered1MVs10k, 1.5),
      deliveryVsBarePost: atLeast(delivery.deliveryVsBarePost, 0.5),
      deliveryP50Ms: atMost(delivery.p50Ms, delivery.pollIntervalMs, ' (the poll interval)'),
      deliveryP99Ms: reported(delivery.p99Ms),
      importVsRawInsert: atLeast(importRun?.importVsRawInsert ?? Number.NaN, 0.5, options.importRecords === 1_000_000 ? '' : ` (measured at ${options.importRecords.toLocaleString('en')}; the target is at 1M)`),
      importPeakRssMB: atMost(importRun?.importPeakRssMB ?? Number.NaN, 300),
      importJsonVsRawInsert: reported(importRun?.importJsonVsRawInsert ?? Number.NaN),
      importJsonPeakRssMB: reported(importRun?.importJsonPeakRssMB ?? Number.NaN),
      pgRestVsRaw: atLeast(ratios.pgRestVsRaw, 0.6),
      rssMB: atMost(rssMB, 150),
    };

    const results = {
      ratios,
      sqlPerLicensePage,
      sqlPerTimesheetPage,
      delivery,
      importPeakRssMB: importRun?.importPeakRssMB ?? null,
      import: importRun ?? { error: importError },
      rssMB,
      targets,
      scenarios: summaries,
      rounds: Object.fromEntries([...rounds].map(([id, r]) => [id, r.rounds])),
      meta: {
        date: new Date().toISOString(),
        quick: options.quick,
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        rounds: options.rounds,
        secondsPerRound: options.seconds,
        warmupSeconds: options.warmupSeconds,
        connections: options.connections,
        licensePageSize: LICENSE_PAGE_SIZE,
        timesheetPageSize: TIMESHEET_PAGE_SIZE,
        dataset: { ...dataset, timesheetIdsInScope },
        notes: [
          'Ratios are medians of per-round ratios (rounds alternate A B C D …, every other round backwards).',
          'SQL per request includes the Authenticator re-reading the API key when its 30 s cache lapses (one read per in-flight request).',
          'rssMB is the largest RSS seen of a gateway process (10k and 1M license files, 1M timesheet file), each running the compiled dist/ under plain node; the peers and baselines run through tsx.',
          'The timesheet-list ratios compare the 12,000-timesheet file with the 1,000,000-timesheet file (keys say 10k as the targets do).',
          'Latencies are per-response times measured by autocannon, at the given connection count.',
          'Servers run in forked child processes; CPU per request is the server process CPU ÷ completed requests.',
          'The raw baselines and mercurius-plain verify HS256 with node:crypto and remember each verified token until it expires, and cache API key state for 30 s, as the gateway does.',
          `The import measured ${options.importRecords.toLocaleString('en')} licenses${options.quick ? ' (quick run; the target is for 1,000,000)' : ''}; its time is the whole shiftgate import command, start to exit. importVsRawInsert and importPeakRssMB are the line-delimited file; importJson… the same licenses as one JSON file.`,
          `Webhook delivery: ${options.deliveryEvents} events × 4 subscriptions, the shipped dispatcher settings (polling every WEBHOOK_POLL_INTERVAL_MS, 4 sends at once per host); p50/p99 from ${options.quick ? 20 : 100} events committed one at a time.`,
          'The PostgreSQL license page runs in a schema of its own in the local server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test), dropped after; its gateway is not in rssMB.',
        ],
      },
    };
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    log('');
    log(table(summaries));
    log('');
    log(targetsTable(targets));
    log('');
    log(`ratios: ${JSON.stringify(ratios)}`);
    log(`wrote ${options.out} in ${((performance.now() - startedAt) / 1000).toFixed(0)} s total`);
    if (importError !== null) {
      console.error(`bench failed: the import did not complete: ${importError}`);
      return 1;
    }
    return 0;
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof LoadFailure ? `bench failed: ${error.message}` : error);
    process.exit(1);
  },
);
