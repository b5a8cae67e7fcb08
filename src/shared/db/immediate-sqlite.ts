import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface SqliteTransaction {
  query(connection: unknown, sql: string): Promise<unknown>;
}

type TransactionClass = new (...args: unknown[]) => SqliteTransaction;
type ClientClass = new (config: object) => object;

// knex has no option for SQLite's transaction mode: its better-sqlite3 client always sends a
// plain (deferred) BEGIN. These are the classes it builds that client and its transactions from.
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as ClientClass;
const SqliteTransactionBase = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js') as TransactionClass;

/**
 * A deferred transaction that reads first and writes later asks for the write lock in the
 * middle; if another connection holds it then, SQLite fails at once (SQLITE_BUSY, or
 * SQLITE_BUSY_SNAPSHOT when another write committed after the read) instead of waiting
 * busy_timeout, because waiting could deadlock two such transactions. BEGIN IMMEDIATE takes
 * the write lock first, where SQLite can wait for it. Every transaction here writes, so each
 * one begins that way; nested ones stay savepoints.
 */
class ImmediateTransaction extends SqliteTransactionBase {
  begin(connection: unknown): Promise<unknown> {
    return this.query(connection, 'BEGIN IMMEDIATE;');
  }
}

/** knex's better-sqlite3 client, with transactions that take the write lock up front. */
export class ImmediateBetterSqlite3Client extends BetterSqlite3Client {
  transaction(...args: unknown[]): SqliteTransaction {
    return new ImmediateTransaction(this, ...args);
  }
}
