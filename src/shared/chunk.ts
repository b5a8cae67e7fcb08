/** Bound on ids per `IN (…)` list: keeps statements well under both backends' parameter limits. */
export const ID_CHUNK = 500;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
