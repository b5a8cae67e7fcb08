import type { Knex } from 'knex';

export type Row = Record<string, unknown>;

/** Bound on ids per `IN (…)` list: keeps statements well under both backends' parameter limits. */
export const ID_CHUNK = 500;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Stored rows for the given ids, keyed by id; one query per 500 ids, never one per row. */
export async function loadRows(
  trx: Knex.Transaction,
  table: string,
  column: string,
  ids: Iterable<number>,
): Promise<Map<number, Row>> {
  const found = new Map<number, Row>();
  for (const part of chunk([...new Set(ids)], ID_CHUNK)) {
    const rows = (await trx(table).whereIn(column, part)) as Row[];
    for (const row of rows) found.set(Number(row[column]), row);
  }
  return found;
}

/** Which of the ids exist in the table. */
export async function existingIds(
  trx: Knex.Transaction,
  table: string,
  column: string,
  ids: Iterable<number>,
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunk([...new Set(ids)], ID_CHUNK)) {
    const rows = (await trx(table).select(column).whereIn(column, part)) as Row[];
    for (const row of rows) found.add(Number(row[column]));
  }
  return found;
}
