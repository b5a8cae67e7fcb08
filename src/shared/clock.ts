export const DAY_MS = 24 * 3600 * 1000;

/** A modification time that is strictly later than the previous one, even within one millisecond. */
export function nextModifiedTime(now: Date, previous: string): string {
  const prior = Date.parse(previous);
  return new Date(Math.max(now.getTime(), Number.isNaN(prior) ? 0 : prior + 1)).toISOString();
}
