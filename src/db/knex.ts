import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
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
    connection: { connectionString: database.connectionString },
    pool: { min: config.poolMin, max: config.poolMax },
  });
}

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
