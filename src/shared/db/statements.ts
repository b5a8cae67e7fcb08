import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { isPostgres, pooledSqliteConnection, type Db, type Queryable } from './knex.js';
import { setBounded } from '../bounded-map.js';

export type Row = Record<string, unknown>;

/**
 * Fixed SQL text run as is: `?` placeholders, the same text on both backends. Statements go
 * through `knex.raw`, except SQLite reads and writes outside a transaction, which run as
 * statements prepared once (below).
 */
export interface Statements {
  /** Rows of a SELECT, or of a write with RETURNING. */
  all(sql: string, bindings?: readonly unknown[]): Promise<Row[]>;
  /** Rows changed by a write. */
  run(sql: string, bindings?: readonly unknown[]): Promise<number>;
}

/*
 * knex's better-sqlite3 client prepares every statement again on each call, and has no option
 * to keep them; preparing the timesheet read costs several times running it
 * (the row "SQLite statements prepared once" of docs/decisions.md). So outside a transaction a statement
 * runs on the database's one pooled connection (handed to us by knex's documented pool hook,
 * `afterCreate`), prepared once per text. better-sqlite3 runs it synchronously, so nothing else
 * runs on the connection meanwhile; while a transaction holds the connection
 * (`inTransaction`), the statement goes through knex instead, which waits for the pool as any
 * other query does. The 'query' event is emitted as knex would, so statement counts hold.
 */
const STATEMENTS_PER_CONNECTION = 2000;
const prepared = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/** The connection a statement of `q` may run on directly: SQLite, outside any transaction. */
function idleSqliteConnection(q: Queryable): BetterSqlite3.Database | null {
  if ((q as Knex.Transaction).isTransaction) return null;
  const connection = pooledSqliteConnection(q as Db);
  return connection?.open && !connection.inTransaction ? connection : null;
}

function statementOn(connection: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let statements = prepared.get(connection);
  if (!statements) {
    statements = new Map();
    prepared.set(connection, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    setBounded(statements, sql, statement, STATEMENTS_PER_CONNECTION);
  }
  return statement;
}

// The conversions knex applies to better-sqlite3 bindings.
function sqliteBinding(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  if (value instanceof Date) return value.valueOf();
  return value;
}

function direct(q: Queryable, sql: string, bindings: readonly unknown[]): { statement: BetterSqlite3.Statement; values: unknown[] } | null {
  const connection = idleSqliteConnection(q);
  if (!connection) return null;
  const values = bindings.map(sqliteBinding);
  q.emit('query', { sql, bindings: values, method: 'raw' });
  return { statement: statementOn(connection, sql), values };
}

async function all(q: Queryable, sql: string, bindings: readonly unknown[] = [], named = false): Promise<Row[]> {
  const run = direct(q, sql, bindings);
  if (run) return run.statement.all(...run.values) as Row[];
  const raw = q.raw(sql, bindings as Knex.RawBinding[]);
  const name = named && isPostgres(q) ? pgStatementName(sql) : undefined;
  // knex passes a query's options to the driver: pg prepares a named statement once per connection.
  const result = (await (name === undefined ? raw : raw.options({ name }))) as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Names given to PostgreSQL statements, process-wide; past the bound a new text runs unnamed. */
const pgNames = new Map<string, string>();
const PG_NAMED_STATEMENTS = 500;

function pgStatementName(sql: string): string | undefined {
  let name = pgNames.get(sql);
  if (name === undefined && pgNames.size < PG_NAMED_STATEMENTS) {
    // From the text, so one name never stands for two texts on a connection.
    name = `sg_${createHash('sha1').update(sql).digest('base64url')}`;
    pgNames.set(sql, name);
  }
  return name;
}

async function changes(q: Queryable, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const run = direct(q, sql, bindings);
  if (run) return run.statement.run(...run.values).changes;
  // knex.raw answers with the driver's result: better-sqlite3's run() info, pg's result.
  const result = (await q.raw(sql, bindings as Knex.RawBinding[])) as { changes?: number; rowCount?: number | null };
  return isPostgres(q) ? (result.rowCount ?? 0) : (result.changes ?? 0);
}

/** Fixed statements on `q`: a database, or a transaction they join. */
export function statementsOf(q: Queryable): Statements {
  return { all: (sql, bindings) => all(q, sql, bindings), run: (sql, bindings) => changes(q, sql, bindings) };
}

/**
 * Runs a SELECT built with knex's query builder (or its text and bindings, from `toSQL()`): on
 * SQLite outside a transaction as above, on PostgreSQL as a named statement, which each pooled
 * connection parses and plans once.
 */
export async function selectRows(q: Queryable, query: Knex.QueryBuilder | { sql: string; bindings: readonly unknown[] }): Promise<Row[]> {
  const { sql, bindings } = 'toSQL' in query ? query.toSQL() : query;
  return all(q, sql, bindings, true);
}

/** Runs `work` with fixed statements, in one transaction (knex's) when `transaction` is set. */
export async function withStatements<T>(db: Db, options: { transaction: boolean }, work: (statements: Statements) => Promise<T>): Promise<T> {
  return options.transaction ? db.transaction((trx) => work(statementsOf(trx))) : work(statementsOf(db));
}
