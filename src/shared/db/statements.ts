import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { isPostgres, pooledSqliteConnection, type Db, type Queryable } from './knex.js';
import { setBounded } from '../bounded-map.js';

export type Row = Record<string, unknown>;

/*
 * knex's better-sqlite3 client prepares every statement again on each call, which costs several
 * times running the timesheet read (the row "SQLite statements prepared once" in docs/decisions.md). So
 * outside a transaction a statement runs prepared once per text on the pool's one connection (from
 * knex's `afterCreate` hook), synchronously, so nothing else runs on it meanwhile; while a
 * transaction holds it (`inTransaction`), through knex, which waits for the pool. The 'query'
 * event is emitted as knex would, so statement counts hold.
 */
const STATEMENTS_PER_CONNECTION = 2000;
const prepared = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function statementOn(connection: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let statements = prepared.get(connection);
  if (!statements) prepared.set(connection, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    setBounded(statements, sql, statement, STATEMENTS_PER_CONNECTION);
  }
  return statement;
}

/** A statement of `q` ready to run directly (SQLite, outside any transaction), or null. */
function direct(q: Queryable, sql: string, bindings: readonly unknown[]): { statement: BetterSqlite3.Statement; values: unknown[] } | null {
  const connection = (q as Knex.Transaction).isTransaction ? undefined : pooledSqliteConnection(q as Db);
  if (!connection?.open || connection.inTransaction) return null;
  // The conversions knex applies to better-sqlite3 bindings.
  const values = bindings.map((value) => (typeof value === 'boolean' ? Number(value) : value instanceof Date ? value.valueOf() : value));
  q.emit('query', { sql, bindings: values, method: 'raw' });
  return { statement: statementOn(connection, sql), values };
}

/**
 * Rows of a fixed statement (`?` placeholders, one text for both backends) on a database or a
 * transaction it joins: a SELECT, or a write with RETURNING. `named`: see selectRows.
 */
export async function rowsOf(q: Queryable, sql: string, bindings: readonly unknown[] = [], named = false): Promise<Row[]> {
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

/** Rows changed by a fixed write, as rowsOf runs it. */
export async function changesOf(q: Queryable, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const run = direct(q, sql, bindings);
  if (run) return run.statement.run(...run.values).changes;
  // knex.raw answers with the driver's result: better-sqlite3's run() info, pg's result.
  const result = (await q.raw(sql, bindings as Knex.RawBinding[])) as { changes?: number; rowCount?: number | null };
  return isPostgres(q) ? (result.rowCount ?? 0) : (result.changes ?? 0);
}

/**
 * Runs a SELECT built with knex's query builder: on SQLite outside a transaction as above, on
 * PostgreSQL as a named statement, which each pooled connection parses and plans once.
 */
export async function selectRows(q: Queryable, query: Knex.QueryBuilder): Promise<Row[]> {
  const { sql, bindings } = query.toSQL();
  return rowsOf(q, sql, bindings, true);
}
