import type BetterSqlite3 from 'better-sqlite3';
import { isPostgres, onlySqliteConnectionInTransaction, type Queryable, type Tx } from './knex.js';

export type Row = Record<string, unknown>;

/**
 * Synchronous statements on a SQLite transaction's connection, for the event writes of
 * src/repositories/webhook-events-bulk.ts (one statement per event, thousands in an import).
 * The connection is the one openDatabase's pool made that has a transaction open, when exactly
 * one has; otherwise (PostgreSQL, outside a transaction, several open) `of` gives null and the
 * caller writes through knex. Statements are prepared on each call, as knex would.
 */
export class SqliteBulk {
  private constructor(private readonly connection: BetterSqlite3.Database) {}

  static async of(trx: Queryable): Promise<SqliteBulk | null> {
    const tx = trx as Tx;
    if (!tx.isTransaction || tx.isCompleted() || isPostgres(trx)) return null;
    const connection = onlySqliteConnectionInTransaction();
    return connection ? new SqliteBulk(connection) : null;
  }

  all(sql: string, bindings: readonly unknown[]): Row[] {
    return this.connection.prepare(sql).all(...bindings) as Row[];
  }

  run(sql: string, bindings: readonly unknown[]): BetterSqlite3.RunResult {
    return this.connection.prepare(sql).run(...bindings);
  }
}

/** `?, ?, ?` for `count` bindings. */
export function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}
