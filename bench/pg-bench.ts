import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { migrateLatest, openDatabase } from '../src/shared/db/knex.js';
import { DEVELOPER_API_KEY, HOT_STAFF_ID, JWT_SECRET, SUB_KEY } from './dataset.js';
import { LICENSE_PAGE_SIZE, call, check, requestToken, type Scenario } from './scenarios.js';
import { ServerProcess } from './servers.js';

/** The local PostgreSQL the tests use; BENCH_DATABASE_URL (or else TEST_DATABASE_URL) overrides it. */
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The tables the license page reads, in the order their references need. */
const TABLES = ['companies', 'customers', 'sites', 'staff', 'licenses', 'api_keys'];
const ROWS_PER_INSERT = 500;

export interface PgBench {
  scenarios: Scenario[];
  servers: ServerProcess[];
  schema: string;
  /** Stops the servers and drops the bench schema. */
  close(): Promise<void>;
}

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

/** Copies the license page's tables from the small SQLite file; 0/1 become booleans where the column is boolean. */
async function copyTables(sqliteFile: string, client: pg.Client, schema: string): Promise<void> {
  const source = new Database(sqliteFile, { readonly: true });
  try {
    for (const table of TABLES) {
      const types = new Map(
        (
          await client.query<{ column_name: string; data_type: string }>(
            'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
            [schema, table],
          )
        ).rows.map((r) => [r.column_name, r.data_type]),
      );
      const rows = source.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]!);
      const value = (column: string, v: unknown) => (types.get(column) === 'boolean' && v !== null ? v === 1 : v);
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const part = rows.slice(i, i + ROWS_PER_INSERT);
        const params: unknown[] = [];
        const tuples = part.map((row) => `(${columns.map((c) => `$${params.push(value(c, row[c]))}`).join(', ')})`);
        await client.query(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, params);
      }
    }
  } finally {
    source.close();
  }
}

/**
 * The REST license page on PostgreSQL: a schema of its own in the local server, created by the
 * gateway's migrations and filled from the small data set's license tables; the gateway from
 * dist/ on it, and the raw `pg` baseline (raw-pg-server.ts) with the SQLite baseline's SQL.
 * Checks: both answer the page byte for byte as the SQLite raw baseline did.
 */
export async function startPgBench(smallDb: string, expectedPage: { path: string; text: string }, log: (line: string) => void): Promise<PgBench> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_PG_URL;
  const schema = `shiftgate_bench_${randomBytes(4).toString('hex')}`;
  const url = withSearchPath(baseUrl, schema);
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const servers: ServerProcess[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  };
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const db = openDatabase(loadConfig({ DATABASE_URL: url, SUBSCRIPTION_KEYS: SUB_KEY, JWT_SECRET }));
    try {
      await migrateLatest(db);
    } finally {
      await db.destroy();
    }
    await admin.query(`SET search_path = ${schema}`);
    await copyTables(smallDb, admin, schema);
    await admin.query(`ANALYZE`);
    await admin.query('SET search_path = public');
    const [gateway, raw] = await Promise.all([ServerProcess.start('gateway-pg', 'gateway', url), ServerProcess.start('raw-pg', 'rawPg', url)]);
    servers.push(gateway, raw);
    const token = await requestToken(gateway, DEVELOPER_API_KEY);
    for (const server of [gateway, raw]) {
      const res = await call(server.url, expectedPage.path, { token });
      check(res.status === 200 && res.text === expectedPage.text, `${server.name} license page differs from the SQLite raw page:\n${res.text.slice(0, 400)}`);
    }
    log(`checks: license page (${LICENSE_PAGE_SIZE} of staff ${HOT_STAFF_ID}) on PostgreSQL (schema ${schema}) identical on the gateway, raw pg and raw SQLite`);
    const plan = { path: expectedPage.path, expected: expectedPage.text };
    const target = (server: ServerProcess) => ({
      baseUrl: server.url,
      method: 'GET' as const,
      headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
      next: () => plan,
    });
    return {
      schema,
      servers,
      close,
      scenarios: [
        { id: 'pgLicensePage.rest', label: 'licenses/50 REST on PostgreSQL', server: gateway, target: target(gateway) },
        { id: 'pgLicensePage.raw', label: 'licenses/50 raw pg', server: raw, target: target(raw) },
      ],
    };
  } catch (error) {
    await close();
    throw error;
  }
}
