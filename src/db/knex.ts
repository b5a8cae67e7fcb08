import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrationSource } from './migrations/index.js';

export type Db = Knex;

/** Opens the configured database. SQLite files get WAL and enforced foreign keys. */
export function openDatabase(config: Pick<Config, 'database' | 'poolMin' | 'poolMax'>): Db {
  const { database } = config;
  if (database.client === 'sqlite') {
    if (database.filename !== ':memory:') mkdirSync(dirname(database.filename), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: database.filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('synchronous = NORMAL');
          done(null, conn);
        },
      },
    });
  }
  return knexFactory({
    client: 'pg',
    connection: { connectionString: database.connectionString, types: pgTypes },
    pool: { min: config.poolMin, max: config.poolMax },
  });
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * pg returns bigint (COUNT(*), SUM of integers) and numeric as strings, because they may not
 * fit a JS number; SQLite returns numbers. Every such value here is a row count or a sum of
 * 32-bit columns, so numbers are exact, and both backends give the same types. Scoped to our
 * connections (not pg's global registry), so other pg users in the process are unaffected.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: string): (value: any) => any {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, 'text');
  },
};

export async function migrateLatest(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/** True when every known migration has been applied (used by readiness checks). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length === 0;
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}
