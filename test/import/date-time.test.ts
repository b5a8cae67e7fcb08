import { describe, expect, it } from 'vitest';
import { normaliseDateTime } from '../../src/import/date-time.js';

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
