import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { isPostgres, type Queryable } from './knex.js';
import { cachedStatement, sqliteBinding, type Row, type SqliteConnection } from './select-rows.js';
import { setBounded } from '../bounded-map.js';

/** A value a shaped query binds: one scalar, or a list bound element by element (`IN (…)`). */
export type BoundValue = string | number | null | readonly (string | number)[];

/** What a shaped query is built from: bound values, plus what decides the SQL text itself. */
export interface ShapeInput<V extends Record<string, BoundValue>> {
  values: V;
  /**
   * Everything else the builder reads (page size, direction, key type…), as a string: part of
   * the shape's key, so two inputs with the same structure and different values share the SQL.
   */
  structure?: string;
}

interface CompiledShape {
  /** `?` placeholders: what knex.raw takes (PostgreSQL, transactions). */
  sql: string;
  /** Placeholders as the driver takes them (better-sqlite3: the same `?` text; pg: `$1`…). */
  nativeSql: string;
  /** PostgreSQL: the name the statement is prepared under on each connection (from its text, so a rebuilt shape reuses it). */
  statementName: string;
  /** Per binding: where its value comes from, or a constant the builder put there. */
  slots: Slot[];
}

type Slot = { name: string; index: number | null } | { constant: unknown };

const SHAPES_PER_QUERY = 200;
const MARK = '\u0000shape\u0000';

function markerOf(name: string, index: number | null): string {
  return index === null ? `${MARK}${name}` : `${MARK}${name}\u0000${index}`;
}

function slotOf(binding: unknown): Slot {
  if (typeof binding !== 'string' || !binding.startsWith(MARK)) return { constant: binding };
  const [name, index] = binding.slice(MARK.length).split('\u0000') as [string, string | undefined];
  return { name, index: index === undefined ? null : Number(index) };
}

/**
 * A SELECT whose SQL text depends only on the shape of its input (which values are null, how
 * long each list is, and the `structure` string), not on the values. knex builds the SQL once
 * per shape, with placeholder markers where the values go; later calls of that shape only fill
 * in the bindings. On SQLite the statement is also prepared once per connection
 * (select-rows.ts). `build` must use each value only as a binding, never to decide the query's
 * form; anything that decides the form belongs in `structure`.
 */
export class QueryShape<V extends Record<string, BoundValue>> {
  private readonly shapes = new Map<string, CompiledShape>();

  constructor(
    readonly name: string,
    private readonly build: (db: Queryable, values: V, structure: string) => Knex.QueryBuilder,
  ) {}

  async select(db: Queryable, input: ShapeInput<V>): Promise<Row[]> {
    const structure = input.structure ?? '';
    const postgres = isPostgres(db);
    // The SQL text is the dialect's: one process may hold a database of each kind.
    const key = this.keyOf(input.values, postgres ? `pg:${structure}` : `sqlite:${structure}`);
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = this.compile(db, input.values, structure);
      setBounded(this.shapes, key, shape, SHAPES_PER_QUERY);
    }
    const bindings = shape.slots.map((slot) => valueOf(slot, input.values));
    if ((db as Knex.Transaction).isTransaction) {
      const result = (await db.raw(shape.sql, bindings as Knex.RawBinding[])) as Row[] | { rows: Row[] };
      return Array.isArray(result) ? result : result.rows;
    }
    if (postgres) return selectNamed(db, shape, bindings);
    return selectPrepared(db, shape.nativeSql, bindings.map(sqliteBinding));
  }

  private keyOf(values: V, structure: string): string {
    let key = structure;
    for (const name in values) {
      const value = values[name];
      key += value === null || value === undefined ? '|n' : Array.isArray(value) ? `|${value.length}` : '|s';
    }
    return key;
  }

  private compile(db: Queryable, values: V, structure: string): CompiledShape {
    const marked: Record<string, BoundValue> = {};
    for (const name in values) {
      const value = values[name];
      if (value === null || value === undefined) marked[name] = null;
      else if (Array.isArray(value)) marked[name] = value.map((_, i) => markerOf(name, i));
      else marked[name] = markerOf(name, null);
    }
    const query = this.build(db, marked as V, structure);
    const compiled = query.toSQL();
    const slots = compiled.bindings.map(slotOf);
    for (const slot of slots) {
      if ('name' in slot && !(slot.name in values)) throw new Error(`query shape ${this.name}: unknown binding ${slot.name}`);
    }
    const nativeSql = compiled.toNative().sql;
    const statementName = `shape_${createHash('sha1').update(nativeSql).digest('base64url')}`;
    return { sql: compiled.sql, nativeSql, slots, statementName };
  }
}

function valueOf(slot: Slot, values: Record<string, BoundValue>): unknown {
  if ('constant' in slot) return slot.constant;
  const value = values[slot.name];
  return slot.index === null ? value : (value as readonly unknown[])[slot.index];
}

async function selectPrepared(db: Queryable, sql: string, bindings: unknown[]): Promise<Row[]> {
  const client = db.client as Knex.Client & {
    acquireConnection(): Promise<SqliteConnection>;
    releaseConnection(connection: SqliteConnection): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    db.emit('query', { sql, bindings, method: 'select' });
    return cachedStatement(connection, sql).all(...bindings);
  } finally {
    await client.releaseConnection(connection);
  }
}

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
  /** pg's record of the statements this connection has prepared, by name. */
  connection?: { parsedStatements?: Record<string, string> };
}

/** Named statements one pooled connection may hold; past that, a new shape runs unnamed (parsed each time). */
const NAMED_STATEMENTS_PER_CONNECTION = 500;

/**
 * PostgreSQL, outside a transaction: the shape runs as a named prepared statement, so each pooled
 * connection parses and plans it once and later calls only bind and execute. The name comes from
 * the SQL text, so it never stands for two texts; the number of names per connection is bounded.
 * Like knex, the connection is taken from and returned to the pool, and the 'query' event is emitted.
 */
async function selectNamed(db: Queryable, shape: CompiledShape, bindings: unknown[]): Promise<Row[]> {
  const client = db.client as Knex.Client & {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(connection: PgConnection): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    db.emit('query', { sql: shape.nativeSql, bindings, method: 'select' });
    const prepared = connection.connection?.parsedStatements;
    const named = prepared !== undefined && (shape.statementName in prepared || Object.keys(prepared).length < NAMED_STATEMENTS_PER_CONNECTION);
    const result = await connection.query({ ...(named ? { name: shape.statementName } : {}), text: shape.nativeSql, values: bindings });
    return result.rows;
  } finally {
    await client.releaseConnection(connection);
  }
}
