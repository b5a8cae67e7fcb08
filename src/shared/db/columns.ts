// Value conversions shared by the repositories: null for a NULL column, from either backend.
export const toInt = (value: unknown): number | null => (value == null ? null : Number(value));
export const toText = (value: unknown): string | null => (value == null ? null : String(value));
/** SQLite returns 0/1 for booleans. */
export const toBool = (value: unknown): boolean | null => (value == null ? null : value === true || value === 1 || value === '1' || value === 't');
/** JSON is text on SQLite; pg may have parsed it already. */
export const fromJson = (value: unknown): unknown => (typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null));

/** Orders loaded rows like the requested ids (DataLoader's contract). */
export function alignById<T>(ids: readonly number[], rows: T[], idOf: (row: T) => number): (T | null)[] {
  const byId = new Map(rows.map((row) => [idOf(row), row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Groups loaded rows by the requested id each belongs to, one list per id (DataLoader's contract for lists). */
export function groupById<T>(ids: readonly number[], rows: T[], idOf: (row: T) => number): T[][] {
  const groups = new Map(ids.map((id) => [id, [] as T[]]));
  for (const row of rows) groups.get(idOf(row))?.push(row);
  return ids.map((id) => groups.get(id)!);
}
