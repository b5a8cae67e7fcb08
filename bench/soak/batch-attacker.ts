import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig } from '../../src/config.js';
import { demoDataSet } from '../../src/cli/demo-data.js';
import type { Check } from './checks.js';
import { createSoakDatabase } from './database.js';
import { runCli, ServerProcess } from './server-process.js';
import { sleep } from './time.js';

const SUBSCRIPTION_KEY = 'soak-batch-subscription-key';
/** The attacker's whole budget: 30 batches of 10, spent in about 15 s. */
const BUDGET = 300;
const BATCH = 10;
const BATCH_EVERY_MS = 500;
const HEALTH_EVERY_MS = 100;
const HEALTH_LIMIT_MS = 1000;
/** A page of 100 entries at the least cost per row read (docs/security.md, "Query cost"). */
const PAGE = 'timesheets(first: 100) { edges { node { timesheetId } } }';
const PAGE_COST = 1287.5;

interface Answer {
  status: number;
  remaining: number | undefined;
  codes: string[];
}

/**
 * A key that spends its whole rate-limit budget on batches of ten operations, each batch as
 * costly as GRAPHQL_MAX_COST admits, against a gateway of its own (its own database, the demo
 * data, the default limits but a budget of BUDGET): every batch is charged ten requests, one
 * over the cost limit is refused whole, the batch past the budget is 429, nothing answers 5xx,
 * and /healthz, asked every 100 ms throughout, answers within HEALTH_LIMIT_MS each time.
 * Self-contained and short, so it runs beside the soak without touching its traffic or numbers.
 */
export async function batchAttackerCheck(databaseUrl: string | undefined, log: (line: string) => void): Promise<Check> {
  const name = 'batch attacker';
  const database = await createSoakDatabase(databaseUrl);
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    DATA_DIR: database.dir,
    SUBSCRIPTION_KEYS: SUBSCRIPTION_KEY,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: String(BUDGET),
  };
  let server: ServerProcess | null = null;
  try {
    const demoFile = join(database.dir, 'batch-demo-data.json');
    writeFileSync(demoFile, JSON.stringify(demoDataSet()));
    const imported = await runCli(['import', demoFile], env);
    if (imported.code !== 0) throw new Error(`demo data import failed: ${imported.stderr.trim()}`);
    const key = await runCli(['keys', 'create', '--type', 'timesheet', '--company', '1', '--name', 'batch attacker', '--json'], env);
    const apiKey = key.code === 0 ? (JSON.parse(key.stdout) as { apiKey?: unknown }).apiKey : undefined;
    if (typeof apiKey !== 'string') throw new Error(`shiftgate keys create failed: ${key.stderr.trim()}`);
    server = await ServerProcess.start(env);
    const base = server.baseUrl;
    const tokenRes = await fetch(`${base}/api/external/token/request`, {
      method: 'POST',
      headers: { 'external-gh-apim-sub-key': SUBSCRIPTION_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey }),
    });
    const token = ((await tokenRes.json()) as { data?: { accessToken?: string } }).data?.accessToken;
    if (!token) throw new Error(`token request failed with ${tokenRes.status}`);

    const maxCost = defaultConfig().limits.graphql.maxCost;
    // The most pages that ten operations can carry within the limit, spread evenly.
    const perOperation = Math.floor(maxCost / BATCH / PAGE_COST);
    const operation = (pages: number) => `{ ${Array.from({ length: pages }, (_, i) => `p${i}: ${PAGE}`).join(' ')} }`;
    const send = async (pages: number): Promise<Answer> => {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'external-gh-apim-sub-key': SUBSCRIPTION_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(Array.from({ length: BATCH }, () => ({ query: operation(pages) }))),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await res.json()) as unknown;
      const items = Array.isArray(body) ? (body as { errors?: { extensions?: { code?: string } }[] }[]) : [body as { errors?: { extensions?: { code?: string } }[] }];
      const remaining = /;r=(\d+);/.exec(res.headers.get('ratelimit') ?? '')?.[1];
      return { status: res.status, remaining: remaining === undefined ? undefined : Number(remaining), codes: items.flatMap((item) => item.errors?.map((e) => e.extensions?.code ?? '?') ?? []) };
    };

    let slowestHealth = 0;
    let healthFailures = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const started = performance.now();
        const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(10_000) }).then((res) => res.ok, () => false);
        if (!ok) healthFailures++;
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        await sleep(HEALTH_EVERY_MS);
      }
    })();

    const problems: string[] = [];
    // Over the limit by one page per operation: refused whole, and still charged.
    const over = await send(perOperation + 1);
    if (over.status !== 400 || over.codes.join() !== 'BAD_USER_INPUT') problems.push(`a batch over the cost limit answered ${over.status} ${over.codes.join()}`);
    let expected = BUDGET - BATCH;
    let served = 0;
    while (expected >= BATCH) {
      await sleep(BATCH_EVERY_MS);
      const answer = await send(perOperation);
      expected -= BATCH;
      if (answer.status !== 200 || answer.codes.length > 0) problems.push(`a batch within the limits answered ${answer.status} ${answer.codes.join()}`);
      else served++;
      if (answer.remaining !== expected) problems.push(`after a batch the budget showed ${answer.remaining}, not ${expected}`);
    }
    const past = await send(perOperation);
    if (past.status !== 429) problems.push(`the batch past the budget answered ${past.status}`);
    watching = false;
    await watcher;
    if (healthFailures > 0) problems.push(`/healthz failed ${healthFailures} times`);
    if (slowestHealth > HEALTH_LIMIT_MS) problems.push(`/healthz took ${slowestHealth.toFixed(0)} ms`);
    const detail =
      `${served} batches of ${BATCH} × ${perOperation} pages (cost ${Math.round(BATCH * perOperation * PAGE_COST)} of ${maxCost}) within a budget of ${BUDGET}; ` +
      `/healthz ≤ ${slowestHealth.toFixed(0)} ms` + (problems.length > 0 ? `; ${problems.slice(0, 3).join('; ')}` : '');
    log(`  ${name}: ${detail}`);
    return { name, ok: problems.length === 0, detail };
  } catch (error) {
    return { name, ok: false, detail: `could not run: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await server?.stop().catch(() => undefined);
    await database.close().catch(() => undefined);
  }
}
