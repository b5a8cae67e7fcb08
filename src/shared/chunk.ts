/** Bound on ids per `IN (…)` list: keeps statements well under both backends' parameter limits. */
export const ID_CHUNK = 500;

/**
 * Bound on rows per multi-row INSERT: SQLite writes one as a compound SELECT of at most 500 terms,
 * and PostgreSQL binds at most 65,535 parameters, so neither may depend on how many rows a caller has.
 */
export const ROWS_PER_INSERT = 500;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
