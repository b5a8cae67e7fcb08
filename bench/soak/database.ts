import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The run's own database: a SQLite file in a temp dir, or a `soak_<random>` schema on a PostgreSQL server. */
export interface SoakDatabase {
  backend: 'sqlite' | 'postgres';
  /** DATABASE_URL for the server and every CLI child. */
  url: string;
  /** Scratch directory: SQLite file, import files, generated state. */
  dir: string;
  /** Removes the directory and drops the schema. */
  close(): Promise<void>;
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The schema is chosen through the URL's `options=-c search_path=…`, which pg sends at connect
 * time, so the server, its pool, its LISTEN connection and every `shiftgate` child all work in it
 * without knowing.
 */
export async function createSoakDatabase(serverUrl: string | undefined): Promise<SoakDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'shiftgate-soak-'));
  if (serverUrl === undefined) {
    return {
      backend: 'sqlite',
      url: `sqlite:${join(dir, 'soak.sqlite')}`,
      dir,
      async close() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `soak_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create schema ${schema}`);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    backend: 'postgres',
    url: url.toString(),
    dir,
    async close() {
      await adminQuery(serverUrl, `drop schema if exists ${schema} cascade`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
