// Strict on purpose: `new Date()` alone accepts zone-less and rolled-over dates (Feb 30 → Mar 2).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the day exists as `Date.UTC` reads it back (it rolls a day over and takes years 0–99 as 1900–1999). */
function realDate(year: number, month: number, day: number): boolean {
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const ZERO = 0x30;

/** The number written by the ASCII digits text[start, end); -1 when any is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The date of text starting `YYYY-MM-DD` when those ten characters are that and the day exists. */
function leadingDate(text: string): boolean {
  if (text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  return year >= 0 && month >= 0 && day >= 0 && realDate(year, month, day);
}

/**
 * Text already in the form normaliseDateTime gives (`2026-01-31T08:00:00.000Z`: what most files
 * hold, and every stored value), checked character by character; null for any other text, which
 * the general reading below then decides on. A valid one is its own UTC form.
 */
function canonicalDateTime(text: string): string | null {
  if (text.length !== 24 || !leadingDate(text)) return null;
  if (text.charCodeAt(10) !== 0x54 || text.charCodeAt(13) !== 0x3a || text.charCodeAt(16) !== 0x3a) return null;
  if (text.charCodeAt(19) !== 0x2e || text.charCodeAt(23) !== 0x5a || digits(text, 20, 23) < 0) return null;
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  return hour < 0 || minute < 0 || second < 0 || hour > 23 || minute > 59 || second > 59 ? null : text;
}

/** An ISO 8601 date-time with a zone, as UTC text like `2026-01-31T08:00:00.000Z`; null when invalid. */
export function normaliseDateTime(text: string): string | null {
  const canonical = canonicalDateTime(text);
  if (canonical !== null) return canonical;
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
  if (text.length !== 10) return normaliseDateTime(text);
  // Ten characters are never a date-time: either a date or nothing valid.
  return leadingDate(text) ? `${text}T00:00:00.000Z` : null;
}
