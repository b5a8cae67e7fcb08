import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSource, importScanned, JsonRefusedError, JsonSyntaxError, scanImport, SourceChangedError, type ImportChanges } from '../../src/import/import-data.js';
import { ImportValidationError } from '../../src/import/problems.js';
import { fullFile, snapshot, tempDatabase, type TempDatabase } from './support.js';

let t: TempDatabase;
beforeEach(async () => {
  t = await tempDatabase();
});
afterEach(async () => {
  await t.close();
});

const NOW = () => new Date('2026-03-01T00:00:00.000Z');

/** One `{"section": record}` line per record: sections in reverse order, their records dealt out in turn. */
function interleaved(file: Record<string, unknown[]>): string[] {
  const sections = Object.keys(file).reverse();
  const lines: string[] = [];
  for (let i = 0; sections.some((section) => i < file[section]!.length); i++) {
    for (const section of sections) if (i < file[section]!.length) lines.push(JSON.stringify({ [section]: file[section]![i] }));
  }
  return lines;
}

function write(name: string, text: string | Buffer): string {
  const path = join(t.dir, name);
  writeFileSync(path, text);
  return path;
}

/** Imports `path` as the CLI does: both readings, events handed over as changes. */
async function importPath(path: string) {
  const changes: ImportChanges[] = [];
  const source = fileSource(path);
  try {
    const summary = await importScanned(t.db, await scanImport(source), { now: NOW, onChanges: async (_trx, part) => void changes.push(part) });
    return { summary, changes };
  } finally {
    await source.close();
  }
}

/** Every row; a generated signing secret is random, so only its presence counts. */
async function comparable() {
  const rows = await snapshot(t.db);
  rows.subscribers = (rows.subscribers as Record<string, unknown>[]).map((row) => ({ ...row, signing_secret: typeof row.signing_secret }));
  return rows;
}

/** The import of `path` fails with `error` and writes nothing. */
async function refused(path: string): Promise<unknown> {
  const before = await snapshot(t.db);
  const error = await importPath(path).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).not.toBeNull();
  expect(await snapshot(t.db)).toEqual(before);
  return error;
}

describe('a line-delimited import file (.ndjson, .jsonl)', () => {
  it('imports what the JSON form imports, sections in any order and interleaved: same rows, summary and changes', async () => {
    const file = fullFile() as unknown as Record<string, unknown[]>;
    const json = await importPath(write('full.json', JSON.stringify(file)));
    const fromJson = await comparable();
    await t.close();
    t = await tempDatabase();

    // A byte-order mark, carriage returns and blank lines are allowed.
    const text = `\ufeff${interleaved(file).join('\r\n')}\r\n\n  \n`;
    const lines = await importPath(write('full.ndjson', text));

    expect(lines.summary).toEqual(json.summary);
    expect(lines.changes).toEqual(json.changes);
    expect(await comparable()).toEqual(fromJson);
  });

  it('imports nothing from a file of no lines, or of blank lines only', async () => {
    const before = await snapshot(t.db);
    for (const text of ['', '\n \r\n\t\n']) {
      const { summary } = await importPath(write('empty.jsonl', text));
      expect(Object.values(summary.entities).flatMap((entity) => Object.values(entity).flat())).toEqual([]);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('reports problems at the paths the JSON form gives, each with its line, and writes nothing', async () => {
    const file = fullFile() as unknown as Record<string, unknown[]>;
    (file.companies![1] as Record<string, unknown>).colour = 'red';
    file.timesheets!.push({ timesheetId: 9003, siteId: 99, employeeId: 1001 });
    file.licenses!.push({ ...(file.licenses![0] as object) });
    const jsonError = await refused(write('bad.json', JSON.stringify(file)));

    const lines = interleaved(file);
    const lineOf = (section: string, index: number) => lines.indexOf(JSON.stringify({ [section]: file[section]![index] }), section === 'licenses' && index > 0 ? lines.indexOf(JSON.stringify({ licenses: file.licenses![0] })) + 1 : 0) + 1;
    const error = await refused(write('bad.jsonl', lines.join('\n')));

    expect(jsonError).toBeInstanceOf(ImportValidationError);
    expect(error).toBeInstanceOf(ImportValidationError);
    const problems = (error as ImportValidationError).problems;
    expect(problems).toEqual([
      `line ${lineOf('companies', 1)}: companies[1].colour: unknown field`,
      `line ${lineOf('licenses', file.licenses!.length - 1)}: licenses[${file.licenses!.length - 1}].securityLicenseId: duplicate id ${(file.licenses![0] as { securityLicenseId: number }).securityLicenseId} (first at licenses[0])`,
      `line ${lineOf('timesheets', 2)}: timesheets[2].siteId: site 99 does not exist`,
    ]);
    expect(problems.map((line) => line.replace(/^line \d+: /, ''))).toEqual((jsonError as ImportValidationError).problems);
  });

  it('refuses each line it cannot take, with its line number, before the database is touched', async () => {
    const ok = JSON.stringify({ companies: { id: 1, name: 'Acme' } });
    const cases: [string, string | Buffer, string, typeof JsonRefusedError | typeof JsonSyntaxError][] = [
      ['syntax', `${ok}\n\n{"companies": {"id": 2,}}\n`, /^line 3: .*JSON/.source, JsonSyntaxError],
      ['mark inside', `${ok}\n\ufeff${ok}\n`, /^line 2: .*JSON/.source, JsonSyntaxError],
      ['truncated', `${ok}\n{"companies": {"id": 2`, /^line 2: .*JSON/.source, JsonSyntaxError],
      ['utf8', Buffer.concat([Buffer.from(`${ok}\n{"companies": {"id": 2, "name": "A`), Buffer.from([0xff]), Buffer.from('"}}\n')]), `line 2: not valid UTF-8 (byte 0xff at byte ${ok.length + 1 + 34})`, JsonRefusedError],
      ['surrogate', `${ok}\n{"companies": {"id": 2, "name": "Acme \\ud800"}}\n`, 'line 2: companies[1].name: text with a lone surrogate (not valid Unicode)', JsonRefusedError],
      ['surrogate key', `{"companies": {"id": 2, "\\udc00": 1}}\n`, 'line 1: companies[0]: text with a lone surrogate (not valid Unicode)', JsonRefusedError],
      ['long text', `{"companies": {"id": 2, "name": "${'x'.repeat(65_537)}"}}\n`, 'line 1: companies[0].name: text longer than 65,536 characters', JsonRefusedError],
      ['long key', `{"companies": {"id": 2, "${'k'.repeat(65_537)}": 1}}\n`, 'line 1: companies[0]: key longer than 65,536 characters', JsonRefusedError],
      ['number', `{"timesheets": {"timesheetId": 1e400}}\n`, 'line 1: timesheets[0].timesheetId: number out of range', JsonRefusedError],
      ['deep', `{"timesheets": {"notes": ${'['.repeat(62)}${']'.repeat(62)}}}\n`, `line 1: timesheets[0].notes${'[0]'.repeat(61)}: nested deeper than 64 levels`, JsonRefusedError],
      ['array', `${ok}\n[1]\n`, 'line 2: expected an object with one member named after a section, got array', JsonRefusedError],
      ['two members', `{"companies": {"id": 1}, "sites": {"id": 2}}\n`, 'line 1: expected an object with one member named after a section, got 2 members', JsonRefusedError],
      ['no member', `{}\n`, 'line 1: expected an object with one member named after a section, got 0 members', JsonRefusedError],
      ['unknown section', `${ok}\n{"shifts": {"id": 1}}\n`, 'line 2: shifts: unknown section (expected companies, customers, sites, staff, licenses, timesheets, subscribers)', JsonRefusedError],
      ['long line', `{"timesheets": {"notes": [${'0,'.repeat(600_000)}0]}}\n`, 'line 1: longer than 1,048,576 bytes', JsonRefusedError],
    ];
    for (const [name, text, message, kind] of cases) {
      const error = await refused(write(`${name.replace(' ', '-')}.ndjson`, text));
      expect(error, name).toBeInstanceOf(kind);
      expect((error as Error).message, name).toMatch(kind === JsonSyntaxError ? new RegExp(message) : new RegExp(`^${message.replace(/[[\]().\\^$*+?{}|]/g, '\\$&')}$`));
    }
  });

  it('reports a line continued from one read before a later line of that read', async () => {
    // Line 1 is not JSON and ends in the second read of 256 KB, which also holds line 2's invalid byte.
    const first = `{"companies": {"id": 1, "name": "${'x'.repeat(300_000)}"}\n`;
    const text = Buffer.concat([Buffer.from(`${first}{"companies": {"id": 2, "name": "A`), Buffer.from([0xff]), Buffer.from('"}}\n')]);
    const error = await refused(write('continued.ndjson', text));
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect((error as Error).message).toMatch(/^line 1: /);
  });

  it('takes a nesting of 64 levels and a line of 1,048,576 bytes, and no more', async () => {
    const deep = `{"timesheets": {"timesheetId": 1, "notes": ${'['.repeat(61)}${']'.repeat(61)}}}`;
    const error = await refused(write('deep-ok.ndjson', `${deep}\n`));
    // Refused by the schema (notes is text), not by the reader.
    expect(error).toBeInstanceOf(ImportValidationError);
    expect((error as ImportValidationError).problems).toContainEqual(expect.stringMatching(/^line 1: timesheets\[0\]\.notes: /));

    const second = '{"timesheets": {"timesheetId": 1';
    // Line 2 of `bytes` bytes, its newline left out.
    const padded = (bytes: number) => `{"companies": {"id": 1, "name": "Acme"}}\n${second}${' '.repeat(bytes - second.length - 2)}}}\n`;
    const atBound = await refused(write('at-bound.ndjson', padded(1_048_576)));
    expect(atBound).toBeInstanceOf(ImportValidationError);
    expect((atBound as ImportValidationError).problems[0]).toMatch(/^line 2: timesheets\[0\]/);
    const over = await refused(write('over-bound.ndjson', padded(1_048_577)));
    expect((over as Error).message).toBe('line 2: longer than 1,048,576 bytes');
  });

  it('reads each section back in order, across reads, runs and a last line without its newline', async () => {
    const expected: Record<string, { value: unknown; line: number }[]> = { licenses: [], timesheets: [] };
    const text: string[] = [];
    for (let i = 0; i < 6_000; i++) {
      if (i === 3_000) text.push('');
      // Runs of one to four lines, long enough that many lines straddle two reads.
      const section = i % 7 < 4 ? 'licenses' : 'timesheets';
      const value = { id: i, text: `é${'x'.repeat((i * 37) % 400)}` };
      text.push(JSON.stringify({ [section]: value }));
      expected[section]!.push({ value, line: text.length });
    }
    const source = fileSource(write('runs.ndjson', text.join('\n')));
    try {
      const scanned: [string, number, unknown][] = [];
      await source.scan({ notObject() {}, notArray() {}, key() {}, element: (section, index, value) => void scanned.push([section, index, value]) });
      expect(scanned).toHaveLength(6_000);
      for (const section of ['licenses', 'timesheets'] as const) {
        const read: unknown[] = [];
        await source.elements(section, (value, index) => {
          expect(index).toBe(read.length);
          read.push(value);
        });
        expect(read).toEqual(expected[section]!.map((record) => record.value));
        expect(expected[section]!.map((_, index) => source.lineOf!(section, index))).toEqual(expected[section]!.map((record) => record.line));
      }
    } finally {
      await source.close();
    }
  });

  it('rolls back when the file changes between its two readings', async () => {
    const file = fullFile() as unknown as Record<string, unknown[]>;
    const path = write('changing.ndjson', interleaved(file).join('\n'));
    const before = await snapshot(t.db);
    const source = fileSource(path);
    try {
      const scanned = await scanImport(source);
      // The same length: only the bytes tell.
      (file.companies![0] as Record<string, unknown>).name = 'Acme Securitx';
      writeFileSync(path, interleaved(file).join('\n'));
      await expect(importScanned(t.db, scanned)).rejects.toThrow(SourceChangedError);
    } finally {
      await source.close();
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});
