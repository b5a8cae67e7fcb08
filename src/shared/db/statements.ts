import type { Knex } from 'knex';
import { isPostgres, type Db } from './knex.js';
import { cachedStatement, sqliteBinding, type Row, type SqliteConnection } from './select-rows.js';

/**
 * Fixed SQL text run as is: `?` placeholders, the same text on both backends. On SQLite each
 * text is prepared once per connection; on PostgreSQL it goes to the driver through knex.raw.
 * Neither builds a query per call.
 */
export interface Statements {
  /** Rows of a SELECT, or of a write with RETURNING. */
  all(sql: string, bindings?: readonly unknown[]): Promise<Row[]>;
  /** Rows changed by a write. */
  run(sql: string, bindings?: readonly unknown[]): Promise<number>;
}

interface SqliteWriter extends SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): { all(...bindings: unknown[]): Row[]; run(...bindings: unknown[]): { changes: number } };
}

interface PooledClient {
  acquireConnection(): Promise<SqliteWriter>;
  releaseConnection(connection: SqliteWriter): Promise<void>;
}

function sqliteStatements(db: Db, connection: SqliteWriter): Statements {
  const prepared = (sql: string) => cachedStatement(connection, sql) as unknown as ReturnType<SqliteWriter['prepare']>;
  return {
    all: async (sql, bindings = []) => {
      const values = bindings.map(sqliteBinding);
      db.emit('query', { sql, bindings: values, method: 'raw' });
      return prepared(sql).all(...values);
    },
    run: async (sql, bindings = []) => {
      const values = bindings.map(sqliteBinding);
      db.emit('query', { sql, bindings: values, method: 'raw' });
      return prepared(sql).run(...values).changes;
    },
  };
}

function knexStatements(q: Db | Knex.Transaction): Statements {
  return {
    all: async (sql, bindings = []) => ((await q.raw(sql, bindings as Knex.RawBinding[])) as { rows: Row[] }).rows,
    run: async (sql, bindings = []) => ((await q.raw(sql, bindings as Knex.RawBinding[])) as { rowCount: number | null }).rowCount ?? 0,
  };
}

/**
 * Runs `work` with fixed statements, in one transaction when `transaction` is set. On SQLite the
 * one pooled connection is held for the whole of `work` (nothing else can run on it meanwhile),
 * and a transaction begins IMMEDIATE, taking the write lock first, as every other write
 * transaction here does. `work` should only run statements: it holds the database.
 */
export async function withStatements<T>(db: Db, options: { transaction: boolean }, work: (statements: Statements) => Promise<T>): Promise<T> {
  if (isPostgres(db)) {
    return options.transaction ? db.transaction((trx) => work(knexStatements(trx))) : work(knexStatements(db));
  }
  const client = db.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    const statements = sqliteStatements(db, connection);
    if (!options.transaction) return await work(statements);
    const control = (sql: string) => (cachedStatement(connection, sql) as unknown as ReturnType<SqliteWriter['prepare']>).run();
    control('BEGIN IMMEDIATE');
    try {
      const result = await work(statements);
      control('COMMIT');
      return result;
    } catch (error) {
      // A failed statement may already have ended the transaction; only roll back one still open.
      if (connection.inTransaction) control('ROLLBACK');
      throw error;
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
