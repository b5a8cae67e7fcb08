import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface SqliteTransaction {
  rollback(connection: unknown, error?: unknown): Promise<unknown>;
  rollbackTo(connection: unknown, error?: unknown): Promise<unknown>;
  /** knex's: runs `sql`; status 1 then resolves the transaction, 2 rejects it with `value`. */
  query(connection: unknown, sql: string, status?: 1 | 2, value?: unknown): Promise<unknown>;
}

// knex has no option for SQLite's transaction mode: its better-sqlite3 client always sends a
// plain (deferred) BEGIN. These are the classes it builds that client and its transactions from.
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as new (config: object) => object;
const SqliteTransactionBase = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js') as new (...args: unknown[]) => SqliteTransaction;

/**
 * A deferred transaction that reads first asks for the write lock in the middle; if another
 * connection holds it, SQLite fails at once (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT after another
 * write committed) rather than wait busy_timeout, which could deadlock two such transactions.
 * BEGIN IMMEDIATE takes the lock first, where SQLite can wait. Every transaction here writes, so
 * each begins that way; nested ones stay savepoints.
 *
 * SQLite rolls a transaction back by itself after some errors (a full disk, an I/O error, lack
 * of memory): a ROLLBACK then fails with "no transaction is active", and knex would reject with
 * that error instead of the one that caused it, which decides the answer (503, not 500). So when
 * better-sqlite3's `inTransaction` says none is open, the transaction ends as knex's rollback
 * would (rejected with its cause, or resolved when there is none), a `SELECT 1` in place of the ROLLBACK.
 */
class ImmediateTransaction extends SqliteTransactionBase {
  begin(connection: unknown): Promise<unknown> {
    return this.query(connection, 'BEGIN IMMEDIATE;');
  }

  override rollback(connection: unknown, error?: unknown): Promise<unknown> {
    return rolledBackAlready(connection) ? this.endWithout(connection, error) : super.rollback(connection, error);
  }

  override rollbackTo(connection: unknown, error?: unknown): Promise<unknown> {
    return rolledBackAlready(connection) ? this.endWithout(connection, error) : super.rollbackTo(connection, error);
  }

  private endWithout(connection: unknown, error: unknown): Promise<unknown> {
    return error === undefined ? this.query(connection, 'SELECT 1', 1) : this.query(connection, 'SELECT 1', 2, error);
  }
}

function rolledBackAlready(connection: unknown): boolean {
  return (connection as { inTransaction?: unknown }).inTransaction === false;
}

/** knex's better-sqlite3 client, with transactions that take the write lock up front. */
export class ImmediateBetterSqlite3Client extends BetterSqlite3Client {
  transaction(...args: unknown[]): SqliteTransaction {
    return new ImmediateTransaction(this, ...args);
  }
}
