import type { Knex } from 'knex';
import { isPostgres, type Queryable, type Tx } from './knex.js';
import { sqliteBinding } from './select-rows.js';
import { setBounded } from '../bounded-map.js';

export type Row = Record<string, unknown>;

/** The parts of a better-sqlite3 statement that bulk work uses. */
export interface SqliteStatement {
  run(...bindings: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  all(...bindings: unknown[]): Row[];
}

interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}

const STATEMENTS_PER_CONNECTION = 200;
const statements = new WeakMap<object, Map<string, SqliteStatement>>();

/**
 * Statements that run thousands of times inside one transaction (an import's rows, its events)
 * go to better-sqlite3 directly, prepared once per connection: through knex each would be
 * compiled and prepared again, which costs far more than SQLite's own work on the row.
 */
export class SqliteBulk {
  private constructor(private readonly connection: SqliteDatabase) {}

  /**
   * The transaction's own connection on SQLite; null on PostgreSQL, which takes the statements
   * through knex, and outside a transaction, where the connection belongs to the pool.
   */
  static async of(trx: Queryable): Promise<SqliteBulk | null> {
    if (isPostgres(trx) || !(trx as Tx).isTransaction) return null;
    const client = trx.client as Knex.Client & { acquireConnection(): Promise<SqliteDatabase> };
    return new SqliteBulk(await client.acquireConnection());
  }

  statement(sql: string): SqliteStatement {
    let cache = statements.get(this.connection);
    if (!cache) {
      cache = new Map();
      statements.set(this.connection, cache);
    }
    let statement = cache.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      setBounded(cache, sql, statement, STATEMENTS_PER_CONNECTION);
    }
    return statement;
  }

  all(sql: string, bindings: readonly unknown[]): Row[] {
    return this.statement(sql).all(...bindings.map(sqliteBinding));
  }

  run(sql: string, bindings: readonly unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    return this.statement(sql).run(...bindings.map(sqliteBinding));
  }
}

/** `"name"`: both backends take double-quoted identifiers. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `?, ?, ?` for `count` bindings. */
export function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}
