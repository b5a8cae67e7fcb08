// Strict on purpose: `new Date()` alone accepts zone-less and rolled-over dates (Feb 30 → Mar 2).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function realDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// Already in the form normaliseDateTime gives (what most files hold, and every stored value).
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** normaliseDateTime for text of the CANONICAL form: the same checks, and the text is its own UTC form. */
function canonicalDateTime(text: string): string | null {
  const part = (start: number, end: number) => Number(text.slice(start, end));
  if (!realDate(part(0, 4), part(5, 7), part(8, 10))) return null;
  return part(11, 13) > 23 || part(14, 16) > 59 || part(17, 19) > 59 ? null : text;
}

/** An ISO 8601 date-time with a zone, as UTC text like `2026-01-31T08:00:00.000Z`; null when invalid. */
export function normaliseDateTime(text: string): string | null {
  if (text.length === 24 && CANONICAL.test(text)) return canonicalDateTime(text);
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, , zone, zoneHour, zoneMinute] = match;
  if (!realDate(Number(year), Number(month), Number(day))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return null;
  if (zone !== 'Z' && (Number(zoneHour) > 23 || Number(zoneMinute) > 59)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A date-time as above, or a plain `YYYY-MM-DD` taken as midnight UTC. */
export function normaliseDateOrDateTime(text: string): string | null {
  const match = DATE.exec(text);
  if (!match) return normaliseDateTime(text);
  return realDate(Number(match[1]), Number(match[2]), Number(match[3])) ? `${text}T00:00:00.000Z` : null;
}
