/** Value conversions shared by the repositories (SQLite returns 0/1 for booleans). */
export function toBool(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  return value === true || value === 1 || value === '1' || value === 't';
}

export function fromJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

export function toInt(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Number(value);
}

export function toText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value);
}

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
