import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonRefusedError, JsonSyntaxError, MAX_DEPTH, MAX_ELEMENT_CHARS, MAX_STRING_CHARS, scanJsonFile } from '../../src/import/json-file.js';
import { MAX_REPORTED_PROBLEMS, Problems } from '../../src/import/problems.js';

const dir = mkdtempSync(join(tmpdir(), 'shiftgate-json-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

interface Seen {
  root?: unknown;
  members: string[];
  elements: [string, unknown][];
  values: [string, unknown][];
}

async function scan(content: string | Buffer): Promise<Seen> {
  const path = join(dir, `${files++}.json`);
  writeFileSync(path, content);
  const seen: Seen = { members: [], elements: [], values: [] };
  let index = 0;
  await scanJsonFile(path, {
    notObject: (value) => (seen.root = value),
    key: (key) => {
      seen.members.push(key);
      index = 0;
    },
    element: (key, i, value) => {
      expect(i).toBe(index++);
      seen.elements.push([key, value]);
    },
    notArray: (key, value) => void seen.values.push([key, value]),
  });
  return seen;
}

/** The refusal a file meets; fails when it is accepted. */
async function refusal(content: string | Buffer): Promise<JsonRefusedError> {
  const error = await scan(content).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof JsonRefusedError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const TRICKY: Record<string, unknown> = {
  licenses: [
    { securityLicenseId: 1, licenseNumber: 'a]b}c{d[e', state: 'quote " and \\ backslash' },
    { securityLicenseId: 2, licenseNumber: 'escaped \\" quote then ]', state: '\u00e9t\u00e9 \u{1F512} 中文 \ufffd' },
    { securityLicenseId: 3, nested: { deep: [[{ x: '}' }]] }, empty: '', numbers: [0, -1.5e3, 12345678901234567890] },
    { __proto__: 'an ordinary key', constructor: 1 },
    'not an object',
    42,
    null,
    [1, [2, { three: 3 }]],
  ],
  companies: [],
  staff: { not: 'an array' },
  sites: null,
};

describe('reading an import file with stream-json', () => {
  it('gives every element as JSON.parse does, in file order', async () => {
    const text = JSON.stringify(TRICKY).replace('{"__proto__"', '{"__proto__":"an ordinary key","constructor":1,"x"');
    const expected = JSON.parse(text) as { licenses: unknown[] };
    const seen = await scan(text);
    expect(seen.members).toEqual(['licenses', 'companies', 'staff', 'sites']);
    expect(seen.elements).toEqual(expected.licenses.map((element) => ['licenses', element]));
    expect(Object.getPrototypeOf(seen.elements[3]![1])).toBe(Object.prototype);
    // A null section counts as absent.
    expect(seen.values).toEqual([['staff', { not: 'an array' }]]);
  });

  it('reads elements that span its reads, multi-byte characters cut at every read boundary, and skips a byte-order mark', async () => {
    const licenses = Array.from({ length: 20_000 }, (_, i) => ({ securityLicenseId: i + 1, state: `été ${'\u{1F512}'.repeat(i % 5)} 中文 ${i}` }));
    const text = JSON.stringify({ licenses });
    const seen = await scan(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    expect(seen.elements).toHaveLength(20_000);
    expect(seen.elements.map(([, value]) => value)).toEqual(licenses);
  });

  it('steps over the members that are not sections, whatever they hold', async () => {
    const seen = await scan(JSON.stringify({ x: { a: [1, { b: 'c' }], d: 'e' }, y: 'z', licenses: [{ id: 1 }] }));
    expect(seen.members).toEqual(['x', 'y', 'licenses']);
    expect(seen.elements).toEqual([['licenses', { id: 1 }]]);
  });

  it('hands over a top level that is not an object whole', async () => {
    expect((await scan('[1, {"a": "b"}]')).root).toEqual([1, { a: 'b' }]);
    expect((await scan(' 42 ')).root).toBe(42);
  });

  it('says where a file stops being JSON, a truncated or empty one included', async () => {
    await expect(scan('{"licenses": [{"id": 1}, {"id": 2 "x"}]}')).rejects.toThrow(JsonSyntaxError);
    await expect(scan('{"licenses": [{"id": 1}, {"id": 2, "state": ')).rejects.toThrow(/\(near licenses\[1\]\.state\)$/);
    await expect(scan('')).rejects.toThrow('the file is empty');
  });
});

describe('text an import refuses', () => {
  it('refuses bytes that are not UTF-8 at the path they are in, whichever read they fall in', async () => {
    const bad = Buffer.concat([Buffer.from('{"companies": [{"id": 1, "name": "ok"}, {"id": 2, "name": "a'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('"}]}')]);
    expect((await refusal(bad)).message).toBe('companies[1].name: not valid UTF-8 (byte 0xff at byte 60)');
    // Far into the file, past the first read, and a sequence cut off at the end of the file.
    const pad = JSON.stringify({ licenses: Array.from({ length: 10_000 }, (_, i) => ({ id: i, state: 'NSW' })) }).slice(0, -2);
    const late = Buffer.concat([Buffer.from(`${pad},{"id": 1, "state": "`), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]);
    expect((await refusal(late)).message).toMatch(/^licenses\[10000\]\.state: not valid UTF-8 \(byte 0xc3 at byte \d+\)$/);
    const afterWhole = Buffer.concat([Buffer.from('{"companies": [{"name": "\u00e9'), Buffer.from([0xff]), Buffer.from('"}]}')]);
    expect((await refusal(afterWhole)).message).toBe('companies[0].name: not valid UTF-8 (byte 0xff at byte 27)');
    const cut = Buffer.concat([Buffer.from('{"companies": [{"name": "'), Buffer.from([0xe4, 0xb8])]);
    expect((await refusal(cut)).message).toBe('companies[0].name: not valid UTF-8 (byte 0xe4 at byte 25)');
  });

  it('refuses an escaped lone surrogate in a value or a key, and takes an escaped pair', async () => {
    expect((await refusal('{"companies": [{"id": 1, "name": "a\\ud800"}]}')).message).toBe('companies[0].name: text with a lone surrogate (not valid Unicode)');
    expect((await refusal('{"companies": [{"id": 1, "name": "\\udc00b"}]}')).path).toEqual(['companies', 0, 'name']);
    expect((await refusal('{"companies": [{"id": 1, "notes": [{"\\udbff": 1}]}]}')).path).toEqual(['companies', 0, 'notes', 0]);
    expect((await scan('{"companies": [{"name": "\\ud83d\\udd12"}]}')).elements).toEqual([['companies', { name: '\u{1F512}' }]]);
  });
});

describe('bounds while parsing', () => {
  it('refuses a string, key or number longer than the bound, at its path', async () => {
    const long = 'x'.repeat(MAX_STRING_CHARS + 1);
    expect((await refusal(`{"timesheets": [{"notes": [{"text": "${long}"}]}]}`)).message).toBe('timesheets[0].notes[0].text: text longer than 65,536 characters');
    expect((await refusal(`{"timesheets": [{"${long}": 1}]}`)).message).toBe('timesheets[0]: key longer than 65,536 characters');
    expect((await refusal(`{"${long}": 1}`)).message).toBe('(root): key longer than 65,536 characters');
    expect((await refusal(`{"licenses": [{"reminder": 1${'0'.repeat(MAX_STRING_CHARS)}}]}`)).message).toBe('licenses[0].reminder: number longer than 65,536 characters');
    expect((await scan(`{"timesheets": [{"notes": [{"text": "${long.slice(1)}"}]}]}`)).elements).toHaveLength(1);
  });

  it('refuses a number beyond what a double holds, at its path, and takes the largest one', async () => {
    expect((await refusal('{"licenses": [{"securityLicenseId": 1, "reminder": 1e400}]}')).message).toBe('licenses[0].reminder: number out of range');
    expect((await refusal('{"timesheets": [{"allowances": [{"amount": -2e308}]}]}')).path).toEqual(['timesheets', 0, 'allowances', 0, 'amount']);
    expect((await scan('{"licenses": [{"reminder": 1.7976931348623157e308, "x": 1e-400}]}')).elements).toEqual([['licenses', { reminder: Number.MAX_VALUE, x: 0 }]]);
  });

  it('refuses nesting deeper than the bound, in kept and skipped values alike', async () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    // The top-level object, the array and the element take three levels.
    const error = await refusal(`{"timesheets": [{"notes": ${nested(MAX_DEPTH - 2)}}]}`);
    expect(error.message).toBe(`timesheets[0].notes${'[0]'.repeat(MAX_DEPTH - 3)}: nested deeper than 64 levels`);
    expect((await refusal(`{"unknown": ${nested(MAX_DEPTH)}}`)).path).toEqual(['unknown']);
    expect((await scan(`{"timesheets": [{"notes": ${nested(MAX_DEPTH - 3)}}]}`)).elements).toHaveLength(1);
  });

  it('refuses an element holding more than the bound in all', async () => {
    const many = Array.from({ length: MAX_ELEMENT_CHARS / 8 }, () => 'abcdefg').join('","');
    expect((await refusal(`{"timesheets": [{"id": 1}, {"notes": ["${many}"]}]}`)).message).toMatch(/^timesheets\[1\]\.notes\[\d+\]: larger than 1,048,576 characters$/);
  });
});

describe('the problems kept in memory', () => {
  it('holds only the first ones in file order, however many are found and in whatever order', () => {
    const problems = new Problems(undefined, 10);
    for (let i = 4_999; i >= 0; i--) problems.add(['licenses', i, 'state'], 'bad');
    problems.add(['companies', 3], 'bad');
    expect(problems.count).toBe(5_001);
    const lines = problems.lines();
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('companies[3]: bad');
    expect(lines.slice(1, 10)).toEqual(Array.from({ length: 9 }, (_, i) => `licenses[${i}].state: bad`));
    expect(lines[10]).toBe('… and 4991 more');
  });

  it('keeps the documented number by default', () => {
    const problems = new Problems();
    for (let i = 0; i < 3 * MAX_REPORTED_PROBLEMS; i++) problems.add(['licenses', i], 'bad');
    expect(problems.lines()).toHaveLength(MAX_REPORTED_PROBLEMS + 1);
    expect(problems.count).toBe(3 * MAX_REPORTED_PROBLEMS);
  });
});
