import { getNamedType, isLeafType, parse, type GraphQLObjectType } from 'graphql';
import { operationCost } from '../src/graphql/cost.js';
import { encodeGlobalId } from '../src/graphql/global-id.js';
import { schema } from '../src/graphql/schema.js';
import { ensureDataset, SUB_KEY, TIMESHEET_API_KEY } from './dataset.js';
import { ServerProcess } from './servers.js';
import { requestToken } from './scenarios.js';

/**
 * `node bin/run-ts.js bench/cost-ceiling.ts [--max-cost N] [--check-only]`: how much a query of a given cost
 * costs the gateway on the bench data set, to choose GRAPHQL_MAX_COST (docs/security.md,
 * "Query cost"). The gateway (dist/, `npm run build` first) serves the small data set with the
 * limit out of the way; each request shape below is sent at growing sizes, one request at a
 * time, and its server CPU (the child's process.cpuUsage), body size and wall time are read
 * against its cost as the gateway counts it (src/graphql/cost.ts, a batch's costs summed).
 * The shape with the most CPU and the most bytes per unit of cost bounds the limit: at
 * `--max-cost` (default: the configured default) the largest request of that shape within it
 * is sent again while /healthz is asked every 50 ms, and the slowest /healthz answer is kept.
 * Targets: 2 s of CPU, 50 MB of body, /healthz within 1 s.
 */

const CPU_TARGET_MS = 2000;
const BODY_TARGET_MB = 50;
const HEALTHZ_TARGET_MS = 1000;
const MAX_ALIASES = 15;
const BATCH = 10;

/** Every leaf field of a type without arguments: the widest item a caller can ask for. */
function leaves(typeName: string): string {
  const type = schema.getType(typeName) as GraphQLObjectType;
  return Object.values(type.getFields())
    .filter((field) => field.args.length === 0 && isLeafType(getNamedType(field.type)))
    .map((field) => field.name)
    .join(' ');
}

const TIMESHEET = leaves('Timesheet');
/** The sites the bench's timesheet key sees (customers 1–6, sites c·10 + 1…4). */
const SITES = Array.from({ length: 6 }, (_, c) => Array.from({ length: 4 }, (_, s) => (c + 1) * 10 + s + 1)).flat();

interface Shape {
  name: string;
  /** The request's operations at size `n` (1 …); undefined past the shape's largest. */
  operations(n: number): string[] | undefined;
}

const aliased = (count: number, field: (i: number) => string) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field(i)}`).join(' ')} }`;
/** n = 1 … 150: n aliases spread over up to ten operations of up to fifteen. */
const spread = (n: number, field: (i: number) => string): string[] | undefined => {
  if (n > MAX_ALIASES * BATCH) return undefined;
  const operations = Math.ceil(n / MAX_ALIASES);
  return Array.from({ length: operations }, (_, o) => aliased(Math.min(MAX_ALIASES, n - o * MAX_ALIASES), field));
};

const SHAPES: Shape[] = [
  {
    name: 'timesheet pages of 100, every field (aliases, then a batch)',
    operations: (n) => spread(n, () => `timesheets(first: 100) { edges { node { ${TIMESHEET} } } }`),
  },
  {
    name: 'nodes(100 site ids, repeated) × their first 100 timesheets, every field',
    operations: (n) => spread(n, () => `nodes(ids: ${JSON.stringify(Array.from({ length: 100 }, (_, k) => encodeGlobalId('Site', SITES[k % SITES.length]!)))}) { ... on Site { timesheets(first: 100) { edges { node { ${TIMESHEET} } } } } }`),
  },
  {
    name: 'site pages × their first 100 timesheets, ids only',
    operations: (n) => spread(n, () => `sites(first: 24) { edges { node { siteName timesheets(first: 100) { edges { node { timesheetId } } } } } }`),
  },
  {
    name: 'timesheet pages of 100, ids only',
    operations: (n) => spread(n, () => 'timesheets(first: 100) { edges { node { timesheetId } } }'),
  },
  {
    // The page is read whatever is selected from it: the most rows per unit of cost.
    name: 'timesheet pages of 100, nothing selected from them',
    operations: (n) => spread(n, () => 'timesheets(first: 100) { __typename }'),
  },
];

function costOf(operations: string[]): number {
  return operations.reduce((sum, query) => sum + (operationCost(schema, parse(query), undefined, {}) ?? 0), 0);
}

interface Sample {
  cost: number;
  cpuMs: number;
  bodyMB: number;
  wallMs: number;
  healthzMs: number;
}

async function send(gateway: ServerProcess, token: string, operations: string[], watchHealth: boolean): Promise<Sample> {
  const body = JSON.stringify(operations.length === 1 ? { query: operations[0] } : operations.map((query) => ({ query })));
  let slowest = 0;
  let watching = watchHealth;
  const watcher = (async () => {
    while (watching) {
      const started = performance.now();
      await fetch(`${gateway.url}/healthz`, { signal: AbortSignal.timeout(60_000) }).then((res) => res.arrayBuffer());
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const before = await gateway.stats();
  const started = performance.now();
  const res = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body,
    signal: AbortSignal.timeout(120_000),
  });
  const answer = await res.arrayBuffer();
  const wallMs = performance.now() - started;
  const after = await gateway.stats();
  watching = false;
  await watcher;
  const text = Buffer.from(answer).toString('utf8', 0, 300);
  if (res.status !== 200 || text.includes('"errors"')) throw new Error(`request refused (${res.status}): ${text}`);
  return {
    cost: costOf(operations),
    cpuMs: (after.userMicros + after.systemMicros - before.userMicros - before.systemMicros) / 1000,
    bodyMB: answer.byteLength / 1024 / 1024,
    wallMs,
    healthzMs: slowest,
  };
}

const row = (name: string, s: Sample) =>
  `${name.padEnd(8)} cost ${Math.round(s.cost).toString().padStart(9)}  CPU ${s.cpuMs.toFixed(0).padStart(6)} ms  body ${s.bodyMB.toFixed(2).padStart(7)} MB  wall ${s.wallMs.toFixed(0).padStart(6)} ms` +
  (s.healthzMs ? `  /healthz ≤ ${s.healthzMs.toFixed(0)} ms` : '') +
  `  CPU/cost ${((s.cpuMs * 1000) / s.cost).toFixed(2)} µs  bytes/cost ${((s.bodyMB * 1024 * 1024) / s.cost).toFixed(1)}`;

async function main(): Promise<void> {
  const flag = process.argv.indexOf('--max-cost');
  const { defaultConfig } = await import('../src/config.js');
  const maxCost = flag === -1 ? defaultConfig().limits.graphql.maxCost : Number(process.argv[flag + 1]);
  const dataset = await ensureDataset({ log: console.log });
  const gateway = await ServerProcess.start('gateway', 'gateway', dataset.small, { config: { GRAPHQL_MAX_COST: '10000000' } });
  try {
    const token = await requestToken(gateway, TIMESHEET_API_KEY);
    let worstCpu = { shape: SHAPES[0]!, perCost: 0 };
    let worstBytes = { shape: SHAPES[0]!, perCost: 0 };
    for (const shape of process.argv.includes('--check-only') ? [] : SHAPES) {
      console.log(`\n${shape.name}`);
      // Twice at the smallest size first: the first run of a document parses, validates and compiles it.
      for (let i = 0; i < 12; i++) await send(gateway, token, shape.operations(1)!, false);
      for (const n of [1, 5, 15, 45, 150]) {
        const operations = shape.operations(n);
        if (!operations) break;
        const sample = await send(gateway, token, operations, false).catch((error: Error) => error);
        if (sample instanceof Error) {
          console.log(`n=${n}: ${sample.message.slice(0, 160)}`);
          break;
        }
        console.log(row(`n=${n}`, sample));
        if (sample.cpuMs >= 50 && sample.cpuMs / sample.cost > worstCpu.perCost) worstCpu = { shape, perCost: sample.cpuMs / sample.cost };
        if (sample.bodyMB / sample.cost > worstBytes.perCost) worstBytes = { shape, perCost: sample.bodyMB / sample.cost };
      }
    }
    if (!process.argv.includes('--check-only')) console.log(`\nmost CPU per unit of cost: ${worstCpu.shape.name}, ${(worstCpu.perCost * 1000).toFixed(2)} µs → ${CPU_TARGET_MS} ms at cost ${Math.round(CPU_TARGET_MS / worstCpu.perCost)}`);
    if (!process.argv.includes('--check-only')) console.log(`most body per unit of cost: ${worstBytes.shape.name}, ${((worstBytes.perCost * 1024 * 1024)).toFixed(1)} bytes → ${BODY_TARGET_MB} MB at cost ${Math.round(BODY_TARGET_MB / worstBytes.perCost)}`);
    console.log(`\nat GRAPHQL_MAX_COST=${maxCost}: the largest request of each shape within it, /healthz asked every 50 ms`);
    let met = true;
    for (const shape of SHAPES) {
      let n = 1;
      while (shape.operations(n + 1) && costOf(shape.operations(n + 1)!) <= maxCost) n++;
      const operations = shape.operations(n)!;
      if (costOf(operations) > maxCost) {
        console.log(`${shape.name}: even the smallest costs ${Math.round(costOf(operations))}`);
        continue;
      }
      const sample = await send(gateway, token, operations, true).catch((error: Error) => error);
      if (sample instanceof Error) {
        console.log(`${shape.name}: ${sample.message.slice(0, 160)}`);
        continue;
      }
      console.log(row(`n=${n}`, sample) + `  ${shape.name}`);
      met &&= sample.cpuMs <= CPU_TARGET_MS && sample.bodyMB <= BODY_TARGET_MB && sample.healthzMs <= HEALTHZ_TARGET_MS;
    }
    console.log(met ? 'every target met' : 'a target was missed');
    process.exitCode = met ? 0 : 1;
  } finally {
    await gateway.stop();
  }
}

await main();
