import { describe, expect, it } from 'vitest';
import { normaliseDateOrDateTime, normaliseDateTime } from '../../src/import/date-time.js';

/** Whether Date.UTC reads the day back as itself (it rolls over bad months and days, and takes years 0–99 as 19xx). */
function dateReadsBack(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The general reading, which text already in UTC form skips: regex groups, range checks, Date's parse. */
function general(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))$/.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return null;
  if (hour! > 23 || minute! > 59 || second! > 59) return null;
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
}

describe('normaliseDateTime on text already in UTC form', () => {
  it('gives what the general reading gives', () => {
    const years = ['0000', '0001', '0099', '0100', '1970', '2024', '2027', '9999'];
    const days = ['01-01', '01-31', '02-28', '02-29', '02-30', '04-31', '12-31', '13-01', '00-10', '05-00'];
    const times = ['00:00:00.000', '23:59:59.999', '24:00:00.000', '12:60:00.000', '12:00:60.000', '08:30:15.250'];
    let checked = 0;
    for (const year of years) {
      for (const day of days) {
        for (const time of times) {
          const text = `${year}-${day}T${time}Z`;
          expect(normaliseDateTime(text), text).toBe(general(text));
          checked++;
        }
      }
    }
    expect(checked).toBe(480);
    expect(normaliseDateTime('2027-01-01T00:00:00.000Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(normaliseDateTime('2027-02-29T00:00:00.000Z')).toBeNull();
  });
});

describe('normaliseDateOrDateTime on plain dates', () => {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');

  it('accepts exactly the days Date.UTC reads back, over leap and century years and out-of-range parts', () => {
    const years = [0, 1, 4, 99, 100, 400, 1600, 1700, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9996, 9999];
    let checked = 0;
    for (const year of years) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          const expected = dateReadsBack(year, month, day) ? `${text}T00:00:00.000Z` : null;
          expect(normaliseDateOrDateTime(text), text).toBe(expected);
          // The same day as the date part of a date-time in UTC form.
          expect(normaliseDateTime(`${text}T10:20:30.400Z`), text).toBe(expected === null ? null : `${text}T10:20:30.400Z`);
          checked++;
        }
      }
    }
    expect(checked).toBe(17 * 14 * 33);
  });

  it('refuses text that is not digits where digits belong, or not ten characters', () => {
    for (const text of ['2024-1-01', '2024-01-1', '2024/01/01', '2024-01-01 ', ' 2024-01-01', '2O24-01-01', '2024-0a-01', '2024--1-01', '+024-01-01', '2024-01-0٣']) {
      expect(normaliseDateOrDateTime(text), text).toBeNull();
    }
    for (const text of ['2024-01-01T00:00:00.000z', '2024-01-01t00:00:00.000Z', '2024-01-01T00:00:00,000Z', '2024-01-01T0a:00:00.000Z', '2024-01-01T00:00:00.00aZ']) {
      expect(normaliseDateTime(text), text).toBe(general(text));
    }
  });
});
