import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { JsonObjectScanner, JsonSyntaxError, scanJsonFile, type MemberMode } from '../../src/import/json-stream.js';
import { MAX_REPORTED_PROBLEMS, Problems } from '../../src/import/problems.js';

interface Seen {
  root?: unknown;
  members: string[];
  elements: [string, unknown][];
  values: [string, unknown][];
}

function visitor(seen: Seen, mode: (key: string) => MemberMode = () => 'elements') {
  return {
    root: (value: unknown) => (seen.root = value),
    member: (key: string) => {
      seen.members.push(key);
      return mode(key);
    },
    element: (key: string, value: unknown) => void seen.elements.push([key, value]),
    value: (key: string, value: unknown) => void seen.values.push([key, value]),
  };
}

/** Feeds the bytes in pieces of `size` through one reused buffer, so every value is split at every possible place for size 1. */
async function scanInPieces(text: string, size: number, mode?: (key: string) => MemberMode): Promise<Seen> {
  const seen: Seen = { members: [], elements: [], values: [] };
  const scanner = new JsonObjectScanner(visitor(seen, mode));
  const bytes = Buffer.from(text, 'utf8');
  // As scanJsonFile does: one buffer, overwritten once each push returns.
  const buffer = Buffer.alloc(size);
  for (let i = 0; i < bytes.length; i += size) {
    const length = bytes.copy(buffer, 0, i, i + size);
    await scanner.push(buffer.subarray(0, length));
    buffer.fill(0x5d);
  }
  scanner.end();
  return seen;
}

const TRICKY = {
  licenses: [
    { securityLicenseId: 1, licenseNumber: 'a]b}c{d[e', state: 'quote " and \\ backslash' },
    { securityLicenseId: 2, licenseNumber: 'escaped \\" quote then ]', state: '\u00e9t\u00e9 \u{1F512} 中文' },
    { securityLicenseId: 3, nested: { deep: [[{ x: '}' }]] }, empty: '', unicode: '\\u005d' },
    { endsInBackslash: 'a\\', two: '\\\\', quoteAfterBackslashes: '\\\\\\"]', [`key "with" \\ ]`]: '\\' },
    'not an object',
    42,
    null,
    [1, [2, { three: 3 }]],
  ],
  companies: [],
  staff: { not: 'an array' },
  sites: null,
};

describe('the streaming JSON scanner', () => {
  it('finds every element whatever the read boundaries: brackets, quotes, escapes and multi-byte characters in strings', async () => {
    const text = JSON.stringify(TRICKY, null, 2);
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) {
      const seen = await scanInPieces(text, size);
      expect(seen.members).toEqual(['licenses', 'companies', 'staff', 'sites']);
      expect(seen.elements.map(([, value]) => value)).toEqual(TRICKY.licenses);
      expect(seen.elements.every(([key]) => key === 'licenses')).toBe(true);
      expect(seen.values).toEqual([
        ['staff', { not: 'an array' }],
        ['sites', null],
      ]);
    }
  });

  it('steps over the members it is told to skip without parsing them', async () => {
    // "c" is not JSON inside, only balanced: a skipped value is never parsed.
    const seen = await scanInPieces('{"a": [1, {"b": "]"}], "licenses": [{"x": 1}], "c": {"d": [}]}', 3, (key) =>
      key === 'licenses' ? 'elements' : 'skip',
    );
    expect(seen.elements).toEqual([['licenses', { x: 1 }]]);
  });

  it('hands over a top level that is not an object whole', async () => {
    expect((await scanInPieces('[1, 2]', 1)).root).toEqual([1, 2]);
    expect((await scanInPieces(' "text" ', 2)).root).toBe('text');
    expect((await scanInPieces('17', 1)).root).toBe(17);
  });

  it.each([
    ['truncated in the middle of an element', '{"licenses": [{"securityLicenseId": 1}, {"securityLicenseId": 2, "sta', /unexpected end of the file/],
    ['truncated inside a string', '{"licenses": [{"state": "NS', /unexpected end of the file/],
    ['truncated after an element', '{"licenses": [{"a": 1},', /unexpected end of the file/],
    ['empty', '   ', /empty/],
    ['an element that is not JSON', '{"licenses": [{"a": tru}]}', /in licenses\[0\]/],
    ['a trailing comma in an array', '{"licenses": [1, ]}', /unexpected "]" at byte 17/],
    ['a trailing comma in the object', '{"licenses": [], }', /expected a key/],
    ['a missing colon', '{"licenses" []}', /expected ":"/],
    ['something after the end', '{"licenses": []} x', /expected the end of the file/],
  ])('refuses a file %s with a JsonSyntaxError that says where', async (_name, text, message) => {
    for (const size of [1, 5, 1 << 16]) {
      const attempt = scanInPieces(text, size);
      await expect(attempt).rejects.toBeInstanceOf(JsonSyntaxError);
      await expect(scanInPieces(text, size)).rejects.toThrow(message);
    }
  });

  describe('runs of whole elements in one buffer', () => {
    // Commas after closing braces inside strings and nested values, where a guessed cut between
    // two elements would be wrong; "]" inside strings; elements of every kind between objects.
    const element = (i: number) => ({
      securityLicenseId: i,
      licenseNumber: i % 3 === 0 ? '},{"securityLicenseId": 0},' : `L-${i}`,
      state: i % 4 === 0 ? 'a ] b }, c' : 'NSW',
      nested: i % 5 === 0 ? { inner: { deep: [{ x: 1 }, { y: '},' }] }, after: 1 } : null,
      text: `${'é'.repeat(i % 7)}\\u{1F512}\\`,
    });
    const mixed = Array.from({ length: 400 }, (_, i) => (i % 50 === 49 ? [i, 'not an object', null, 7][i % 4] : element(i)));

    it('gives the same elements, in order, as reading them one at a time', async () => {
      const text = JSON.stringify({ licenses: mixed, staff: [{ id: 1 }, { id: 2 }], companies: [] }, null, 1);
      const one = await scanInPieces(text, 1);
      for (const size of [1 << 10, 1 << 16, 1 << 20]) {
        const seen = await scanInPieces(text, size);
        expect(seen.elements).toEqual(one.elements);
        expect(seen.members).toEqual(['licenses', 'staff', 'companies']);
      }
      expect(one.elements.map(([, value]) => value)).toEqual([...mixed, { id: 1 }, { id: 2 }]);
    });

    it('parses flat objects many at a time', async () => {
      const flat = Array.from({ length: 1_000 }, (_, i) => ({ securityLicenseId: i + 1, licenseNumber: `NSW-${i}`, critical: i % 2 === 0 }));
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const seen = await scanInPieces(JSON.stringify({ licenses: flat }), 1 << 18);
        expect(seen.elements.map(([, value]) => value)).toEqual(flat);
        expect(parse.mock.calls.length).toBeLessThan(20);
      } finally {
        parse.mockRestore();
      }
    });

    it('reports a bad element among good ones as reading them one at a time does', async () => {
      const good = Array.from({ length: 30 }, (_, i) => JSON.stringify(element(i)));
      for (const bad of ['{"a": tru}', '{"a": 1,}', '{"a" 1}', '{"a": "x}', '{"a": [1}]}']) {
        const text = `{"licenses": [${[...good.slice(0, 20), bad, ...good.slice(20)].join(',\n')}]}`;
        const expected = await scanInPieces(text, 1).then(
          () => 'no error',
          (error: Error) => error.message,
        );
        expect(expected).toMatch(/licenses\[20\]|byte/);
        await expect(scanInPieces(text, 1 << 16)).rejects.toThrow(expected);
      }
    });
  });

  describe('reading a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shiftgate-json-stream-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads elements that span its read buffers, and skips a byte-order mark', async () => {
      // Far more than one 64 KiB read, with multi-byte characters at every offset.
      const licenses = Array.from({ length: 3_000 }, (_, i) => ({ securityLicenseId: i + 1, state: `${'é'.repeat(i % 7)}\u{1F512}"]}`.repeat(1 + (i % 5)) }));
      const path = join(dir, 'large.json');
      writeFileSync(path, `\uFEFF${JSON.stringify({ licenses })}`);
      const seen: Seen = { members: [], elements: [], values: [] };
      await scanJsonFile(path, visitor(seen));
      expect(seen.elements.map(([, value]) => value)).toEqual(licenses);
    });

    it('reads the next buffer while elements are taken, in order, and ends on a late syntax error', async () => {
      // Several read buffers (256 KiB each), taken by a visitor that sometimes waits, so that the
      // read of the next buffer is under way while the scanner still works on the last one.
      const licenses = Array.from({ length: 20_000 }, (_, i) => ({ securityLicenseId: i + 1, note: `${i}:${'x'.repeat(i % 97)}` }));
      const text = JSON.stringify({ licenses });
      expect(text.length).toBeGreaterThan(4 * 256 * 1024);
      const path = join(dir, 'several-buffers.json');
      writeFileSync(path, text);
      const taken: unknown[] = [];
      const waiting = {
        member: (): MemberMode => 'elements',
        element: (_key: string, value: unknown) => {
          taken.push(value);
          return taken.length % 1_000 === 0 ? new Promise<void>((resolve) => setTimeout(resolve, 2)) : undefined;
        },
        value: () => {},
      };
      await scanJsonFile(path, waiting);
      expect(taken).toEqual(licenses);

      writeFileSync(path, `${text.slice(0, -2)},}`);
      taken.length = 0;
      await expect(scanJsonFile(path, waiting)).rejects.toThrow(JsonSyntaxError);
      expect(taken).toHaveLength(licenses.length);
    });
  });
});

describe('the problems kept in memory', () => {
  it('holds only the first ones in file order, however many are found and in whatever order', () => {
    const problems = new Problems(['companies', 'licenses'], 10);
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
    const problems = new Problems(['licenses']);
    for (let i = 0; i < 3 * MAX_REPORTED_PROBLEMS; i++) problems.add(['licenses', i], 'bad');
    expect(problems.lines()).toHaveLength(MAX_REPORTED_PROBLEMS + 1);
    expect(problems.count).toBe(3 * MAX_REPORTED_PROBLEMS);
  });
});
