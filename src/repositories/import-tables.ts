import type BetterSqlite3 from 'better-sqlite3';
import { isPostgres, pooledSqliteConnection, type Db, type Tx } from '../shared/db/knex.js';
import { chunk, ID_CHUNK } from '../shared/chunk.js';

/** The import's reads and writes, by id (tables named in src/import/rows.ts), a few hundred ids per statement. */

export type Row = Record<string, unknown>;

// SQLite allows 32,766 bound parameters per statement, PostgreSQL 65,535; stay well under both.
const MAX_PARAMETERS = 30_000;
// PostgreSQL rows per multi-row insert.
const MAX_ROWS_PER_INSERT = 250;

/** The stored rows whose `column` is one of `ids`, one `IN (…)` read per chunk of ids. */
export async function rowsByIds(trx: Tx, table: string, column: string, ids: Iterable<number>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const part of chunk([...new Set(ids)], ID_CHUNK)) rows.push(...((await trx(table).select('*').whereIn(column, part)) as Row[]));
  return rows;
}

/** Stored rows for the given ids, keyed by id. */
export async function loadRows(trx: Tx, table: string, column: string, ids: Iterable<number>): Promise<Map<number, Row>> {
  return new Map((await rowsByIds(trx, table, column, ids)).map((row) => [Number(row[column]), row]));
}

const ceilings = new WeakMap<Tx, Map<string, number>>();

/**
 * The largest id stored in the table (0 when empty) when the transaction first asked: a record of
 * an import whose id is above it is new (an id repeated in the file is a problem, and then
 * nothing is written), so a chunk of new records needs no read.
 */
export async function storedCeiling(trx: Tx, table: string, column: string): Promise<number> {
  let known = ceilings.get(trx);
  if (!known) ceilings.set(trx, (known = new Map()));
  let ceiling = known.get(table);
  if (ceiling === undefined) {
    const row = (await trx(table).max({ largest: column }).first()) as { largest: number | null } | undefined;
    known.set(table, (ceiling = Number(row?.largest ?? 0)));
  }
  return ceiling;
}

/** Moves these event filters onto a pair no real filter can have, out of the way of the (subscriber, event, eventType) unique index. */
export async function parkEventFilters(trx: Tx, ids: readonly number[]): Promise<void> {
  const parked = trx.raw(`? || CAST(id AS TEXT)`, ['\u001fshiftgate-import:']);
  for (const part of chunk(ids, ID_CHUNK)) await trx('event_filters').whereIn('id', part).update({ event: parked });
}

/**
 * Gives the transaction's SQLite connection a page cache of `kib` KiB until the returned
 * function is called, which puts the previous size back (the setting outlives the transaction).
 * Nothing happens on PostgreSQL.
 */
export async function widenPageCache(trx: Tx, kib: number): Promise<() => Promise<void>> {
  if (isPostgres(trx)) return async () => {};
  const [{ cache_size: previous }] = (await trx.raw('PRAGMA cache_size')) as [{ cache_size: number }];
  await trx.raw(`PRAGMA cache_size = ${-Math.floor(kib)}`);
  return async () => void (await trx.raw(`PRAGMA cache_size = ${previous}`));
}

/** Transactions whose writes run as statements prepared on their SQLite connection (writeDirectly). */
const directConnections = new WeakMap<Tx, BetterSqlite3.Database>();

/**
 * Lets upsertRows write on `trx`, a transaction of `db` on SQLite, through better-sqlite3 itself:
 * one statement prepared per chunk and run per row, rather than a multi-row statement knex builds
 * and SQLite parses per chunk (an import of 1,000,000 licenses took several times as long). The
 * pool holds one connection, so the connection in a transaction is the caller's.
 */
export function writeDirectly(db: Db, trx: Tx): void {
  const connection = pooledSqliteConnection(db);
  if (connection?.inTransaction) directConnections.set(trx, connection);
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Inserts the rows, or replaces the stored ones with the same id. A row the caller knows is not
 * stored (`stored[i]` false, read in the same transaction) goes through a plain `INSERT` where
 * writes run directly (writeDirectly), which costs SQLite less than the upsert; otherwise a
 * bounded number of rows goes into each upsert.
 */
export async function upsertRows(trx: Tx, table: string, idColumn: string, rows: readonly Row[], columnsPerRow: number, stored: readonly boolean[]): Promise<void> {
  if (rows.length === 0) return;
  const connection = directConnections.get(trx);
  if (connection?.inTransaction) {
    const columns = Object.keys(rows[0]!);
    const insertSql = `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const insert = connection.prepare(insertSql);
    const upsert = connection.prepare(`${insertSql} ON CONFLICT (${quote(idColumn)}) DO UPDATE SET ${columns.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`);
    const values: unknown[] = new Array(columns.length);
    rows.forEach((row, index) => {
      for (let i = 0; i < columns.length; i++) {
        const value = row[columns[i]!];
        values[i] = typeof value === 'boolean' ? Number(value) : value;
      }
      (stored[index] === false ? insert : upsert).run(...values);
    });
    return;
  }
  const perStatement = Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / columnsPerRow));
  for (const part of chunk(rows, perStatement)) await trx(table).insert(part).onConflict(idColumn).merge();
}
