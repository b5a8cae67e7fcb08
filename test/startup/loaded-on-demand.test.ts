import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIST = resolve(import.meta.dirname, '../../dist');

/** Records the URL of every ES module the child loads, one per line (hooks run on their own thread). */
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + '\\n');
  return next(url, context);
}
`;

/**
 * Builds the gateway from dist/ on a SQLite file, as serve does, and reports which modules were
 * loaded once it was built and again after one request to /openapi.json.
 */
const CHILD = `
import { createRequire, register } from 'node:module';
import { readFileSync } from 'node:fs';
register(process.env.HOOKS_URL);
const require = createRequire(import.meta.url);
const { createApp } = await import(process.env.DIST_URL + '/server/app.js');
const { loadConfig } = await import(process.env.DIST_URL + '/config.js');
const app = await createApp(loadConfig({
  DATABASE_URL: 'sqlite:' + process.env.DB_FILE,
  SUBSCRIPTION_KEYS: 'loaded-on-demand-key',
  JWT_SECRET: 'loaded-on-demand-secret-loaded-on-demand-secret',
  LOG_LEVEL: 'silent',
}));
const seen = () => ({ commonjs: Object.keys(require.cache), esm: readFileSync(process.env.LOADED_LOG, 'utf8').split('\\n') });
const built = seen();
await new Promise((resolve) => app.server.listen(0, '127.0.0.1', resolve));
const res = await fetch('http://127.0.0.1:' + app.server.address().port + '/openapi.json');
const status = res.status;
await res.text();
const served = seen();
await app.close();
console.log(JSON.stringify({ built, served, status }));
`;

interface Loaded {
  commonjs: string[];
  esm: string[];
}

describe('modules the serving path does not need are loaded on demand', () => {
  let dir: string;
  let report: { built: Loaded; served: Loaded; status: number };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shiftgate-loaded-'));
    writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
    writeFileSync(join(dir, 'child.mjs'), CHILD);
    const child = spawnSync(process.execPath, [join(dir, 'child.mjs')], {
      encoding: 'utf8',
      env: {
        ...process.env,
        HOOKS_URL: pathToFileURL(join(dir, 'hooks.mjs')).href,
        DIST_URL: pathToFileURL(DIST).href,
        DB_FILE: join(dir, 'gateway.sqlite'),
        LOADED_LOG: join(dir, 'loaded.txt'),
      },
    });
    expect(child.status, child.stderr).toBe(0);
    report = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const loaded = (list: string[], fragment: string) => list.some((entry) => entry.includes(fragment));

  it('a gateway on SQLite loads neither the PostgreSQL driver nor the shared rate-limit store (nor the rate limiter library\'s other stores)', () => {
    // Sanity: the lists are real (knex and the schema are loaded).
    expect(loaded(report.built.commonjs, '/node_modules/knex/')).toBe(true);
    expect(loaded(report.built.esm, '/dist/graphql/schema.js')).toBe(true);
    expect(loaded(report.built.commonjs, '/node_modules/rate-limiter-flexible/lib/RateLimiterMemory.js')).toBe(true);
    for (const list of [report.built.commonjs, report.built.esm, report.served.commonjs, report.served.esm]) {
      expect(loaded(list, '/node_modules/pg/')).toBe(false);
      expect(loaded(list, '/node_modules/rate-limiter-flexible/lib/RateLimiterPostgres.js')).toBe(false);
      expect(loaded(list, '/node_modules/rate-limiter-flexible/index.js')).toBe(false);
    }
  });

  it('the OpenAPI generator loads with the first request to /openapi.json, not before', () => {
    expect(loaded(report.built.esm, '/dist/rest/openapi/document.js')).toBe(false);
    expect(report.status).toBe(200);
    expect(loaded(report.served.esm, '/dist/rest/openapi/document.js')).toBe(true);
  });
});
