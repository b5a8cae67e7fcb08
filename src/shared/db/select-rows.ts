import type { Knex } from 'knex';
import { isPostgres, type Db } from './knex.js';
import { setBounded } from '../bounded-map.js';

export type Row = Record<string, unknown>;

interface SqliteStatement {
  all(...bindings: unknown[]): Row[];
}
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

const STATEMENTS_PER_CONNECTION = 500;
const statementCache = new WeakMap<object, Map<string, SqliteStatement>>();

export function cachedStatement(connection: SqliteConnection, sql: string): SqliteStatement {
  let statements = statementCache.get(connection);
  if (!statements) {
    statements = new Map();
    statementCache.set(connection, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    setBounded(statements, sql, statement, STATEMENTS_PER_CONNECTION);
  }
  return statement;
}

// The same conversions knex applies to better-sqlite3 bindings.
export function sqliteBinding(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  if (value instanceof Date) return value.valueOf();
  return value;
}

/**
 * Runs a SELECT built with knex. On SQLite, outside a transaction, the statement is prepared
 * once per connection and reused: knex would prepare it again on every call, which was the
 * largest single cost of a hot read. The 'query' event is still emitted, so statement counts
 * keep coming from the database layer.
 */
export async function selectRows(db: Db | Knex.Transaction, query: Knex.QueryBuilder): Promise<Row[]> {
  const client = db.client as Knex.Client & {
    acquireConnection(): Promise<SqliteConnection>;
    releaseConnection(connection: SqliteConnection): Promise<void>;
  };
  if (isPostgres(db) || (db as Knex.Transaction).isTransaction) {
    return (await query) as Row[];
  }
  const { sql, bindings } = query.toSQL().toNative();
  const values = bindings.map(sqliteBinding);
  const connection = await client.acquireConnection();
  try {
    db.emit('query', { sql, bindings: values, method: 'select' });
    return cachedStatement(connection, sql).all(...values);
  } finally {
    await client.releaseConnection(connection);
  }
}
