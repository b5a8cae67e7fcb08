import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import type Pg from 'pg';
import type { Config } from '../../config.js';
import { noteFailedStatements } from './failed-statements.js';
import { ImmediateBetterSqlite3Client } from './immediate-sqlite.js';
import { migrationSource } from './migrations/index.js';

export type Db = Knex;
/** A transaction: repository functions take it where their statements must join the caller's. */
export type Tx = Knex.Transaction;
/** Either: a statement runs in the caller's transaction when given one. */
export type Queryable = Db | Tx;

const require = createRequire(import.meta.url);

type DatabaseOptions = Pick<Config, 'database' | 'poolMin' | 'poolMax' | 'sqliteBusyTimeoutMs'>;

/** What a database was opened with, and on SQLite the one connection its pool made (see statements.ts). */
interface Opened {
  database: Config['database'];
  sqlite?: BetterSqlite3.Database;
}

const opened = new WeakMap<Db, Opened>();

/**
 * Opens the configured database. SQLite files get WAL, enforced foreign keys, a busy timeout
 * (SQLITE_BUSY_TIMEOUT_MS) and transactions that take the write lock when they begin.
 */
export function openDatabase(config: DatabaseOptions): Db {
  const state: Opened = { database: config.database };
  const db = connect(config, state);
  opened.set(db, state);
  // A failed statement is logged by its name, never its text (src/shared/db/failed-statements.ts).
  noteFailedStatements(db);
  return db;
}

/** The pooled connection of a SQLite database opened by openDatabase; undefined on PostgreSQL or before it is made. */
export function pooledSqliteConnection(db: Db): BetterSqlite3.Database | undefined {
  return opened.get(db)?.sqlite;
}

/** The connection string a PostgreSQL database was opened with (openDatabase), for a session of its own. */
export function postgresConnectionString(db: Db): string | undefined {
  const database = opened.get(db)?.database;
  return database?.client === 'pg' ? database.connectionString : undefined;
}

let pgModule: typeof Pg | undefined;

/** The PostgreSQL driver, loaded when first needed: a gateway on SQLite never keeps its modules in memory. */
export function pgDriver(): typeof Pg {
  pgModule ??= require('pg') as typeof Pg;
  return pgModule;
}

function connect(config: DatabaseOptions, state: Opened): Db {
  const { database } = config;
  if (database.client === 'sqlite') {
    if (database.filename !== ':memory:') mkdirSync(dirname(database.filename), { recursive: true });
    return knexFactory({
      client: ImmediateBetterSqlite3Client as unknown as typeof Knex.Client,
      compileSqlOnError: false,
      connection: { filename: database.filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: BetterSqlite3.Database, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma(`busy_timeout = ${config.sqliteBusyTimeoutMs}`);
          conn.pragma('synchronous = NORMAL');
          state.sqlite = conn;
          done(null, conn);
        },
      },
    });
  }
  return knexFactory({
    client: 'pg',
    compileSqlOnError: false,
    connection: { connectionString: database.connectionString, types: pgTypes },
    pool: { min: config.poolMin, max: config.poolMax },
  });
}

/**
 * pg returns bigint (COUNT(*), SUM of integers) and numeric as strings, SQLite numbers. Every such
 * value here is a count or a sum of 32-bit columns, so numbers are exact and both backends agree.
 * Set on our connections only, not in pg's global registry.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: string): (value: any) => any {
    const { types } = pgDriver();
    if (format !== 'binary' && (oid === types.builtins.INT8 || oid === types.builtins.NUMERIC)) return Number;
    return types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text');
  },
};

/**
 * Applies pending migrations. knex's lock table serialises runs once it exists, but instances
 * starting together on a fresh PostgreSQL database race to create it (and fail on duplicate
 * catalog entries). So there the run holds a session advisory lock, keyed by schema, on a
 * connection outside the pool: the others wait, then find nothing to do, and a crashed migrator's
 * lock dies with its session.
 */
export async function migrateLatest(db: Db): Promise<void> {
  if (!isPostgres(db)) {
    await db.migrate.latest({ migrationSource });
    return;
  }
  const connectionString = postgresConnectionString(db);
  if (connectionString === undefined) throw new Error('migrateLatest: open the PostgreSQL database with openDatabase');
  const lock = new (pgDriver().Client)({ connectionString });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock(hashtext(current_schema() || ':shiftgate:migrate'))");
    await db.migrate.latest({ migrationSource });
  } finally {
    // Ending the session releases the lock as well; unlocking first just frees it sooner.
    await lock.query("select pg_advisory_unlock(hashtext(current_schema() || ':shiftgate:migrate'))").catch(() => undefined);
    await lock.end();
  }
}

/** One round trip to the database; throws when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.raw('select 1');
}

/**
 * Throws when SQLite cannot take a write (a full disk or a read-only file still answers a select):
 * the probe fills a page of a new table, needing fresh pages as a real write does, and rolls back.
 * PostgreSQL is not probed: its ping covers what we can see, and a table per probe churns its catalog.
 */
export async function probeWrite(db: Db): Promise<void> {
  if (isPostgres(db)) return;
  const trx = await db.transaction();
  try {
    await trx.raw('create table readiness_probe (x blob)');
    await trx.raw('insert into readiness_probe values (zeroblob((select page_size from pragma_page_size())))');
  } finally {
    await trx.rollback();
  }
}

/** True when every known migration has been applied (used by readiness checks). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length === 0;
}

const postgres = new WeakMap<Queryable, boolean>();

/** Whether a database or transaction is PostgreSQL's, told by the placeholder knex writes for it (`$1` or `?`). */
export function isPostgres(db: Queryable): boolean {
  let answer = postgres.get(db);
  if (answer === undefined) {
    answer = db.raw('?', [0]).toSQL().toNative().sql === '$1';
    postgres.set(db, answer);
  }
  return answer;
}
