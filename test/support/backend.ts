import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../src/shared/db/knex.js';

/**
 * Which database the suite runs on. vitest.config.ts runs every test file once per backend
 * (two projects) and names the backend in SHIFTGATE_TEST_BACKEND; TEST_DATABASE_URL points at
 * the PostgreSQL server when the postgres project is present.
 */
export type TestBackend = 'sqlite' | 'postgres';

export function testBackend(): TestBackend {
  return process.env.SHIFTGATE_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

export const onPostgres = (): boolean => testBackend() === 'postgres';

/** The server-level PostgreSQL URL (no schema chosen), or undefined when PostgreSQL is not configured. */
export function postgresServerUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url ? url : undefined;
}

export interface TestDatabase {
  /** A DATABASE_URL for this database alone; subprocesses can use it as is. */
  url: string;
  /** A scratch directory (SQLite file, generated secrets, import files). */
  dir: string;
  /** Environment for loadConfig / a subprocess: DATABASE_URL and DATA_DIR. */
  env: Record<string, string>;
  /** The PostgreSQL schema, when on PostgreSQL. */
  schema?: string;
  /** Drops the schema (PostgreSQL) and removes the directory. */
  close(): Promise<void>;
}

/**
 * Adds `-c search_path=<schema>` to a PostgreSQL URL. pg sends `options` at connect time, so
 * every connection opened from this URL — in this process, in a knex pool, or in a spawned
 * `shiftgate` subprocess — works in the schema without anything else knowing about it.
 */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresServerUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test (or one test file): a fresh SQLite file, or a fresh
 * `t_<random>` schema on the PostgreSQL server. Nothing is migrated here; createApp and the
 * migrate command do that, as they would in production.
 */
export async function createTestDatabase(backend: TestBackend = testBackend()): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'shiftgate-test-'));
  if (backend === 'sqlite') {
    const url = `sqlite:${join(dir, 'test.sqlite')}`;
    return {
      url,
      dir,
      env: { DATABASE_URL: url, DATA_DIR: dir },
      async close() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const server = postgresServerUrl();
  if (!server) throw new Error('a PostgreSQL test database needs TEST_DATABASE_URL');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withAdminClient((c) => c.query(`create schema ${schema}`));
  const url = withSearchPath(server, schema);
  return {
    url,
    dir,
    schema,
    // Small pools: two projects × several workers × several apps per file share one server.
    env: { DATABASE_URL: url, DATA_DIR: dir, DATABASE_POOL_MAX: '4' },
    async close() {
      await withAdminClient((c) => c.query(`drop schema if exists ${schema} cascade`));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A boolean as the backend returns it from a raw row: 0/1 on SQLite, false/true on PostgreSQL. */
export function storedBoolean(value: boolean): boolean | number {
  if (onPostgres()) return value;
  return value ? 1 : 0;
}

/** The tables of an app's database (its SQLite file, or its schema on PostgreSQL), by name. */
export async function databaseTables(db: Db): Promise<string[]> {
  const rows: { name: string }[] =
    db.client.config.client === 'pg'
    ? (await db.raw('select table_name as name from information_schema.tables where table_schema = current_schema()')).rows
    : await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'");
  return rows.map((r) => r.name).sort();
}

/** Every row of every table, as one string to compare before and after a request. */
export async function databaseSnapshot(db: Db): Promise<string> {
  const parts: unknown[] = [];
  for (const table of await databaseTables(db)) parts.push(await db(table).select().orderBy(1));
  return JSON.stringify(parts);
}
