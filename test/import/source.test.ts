import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource, type ImportSource } from '../../src/import/source.js';
import type { Section } from '../../src/import/format.js';

const dir = mkdtempSync(join(tmpdir(), 'shiftgate-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function elementsOf(source: ImportSource, section: Section): Promise<[unknown, number][]> {
  const seen: [unknown, number][] = [];
  await source.elements(section, (value, index) => void seen.push([value, index]));
  return seen;
}

const scanAll = (source: ImportSource) => source.scan({ notObject() {}, key() {}, notArray() {}, element() {} });

describe('an import file read from disk', () => {
  it('is parsed once: the second reading takes every element back from the first, in order, whatever the file holds by then', async () => {
    const licenses = Array.from({ length: 5_000 }, (_, i) => ({ securityLicenseId: i + 1, state: `été ${'\u{1F512}'.repeat(i % 3)} "]}\n ${i}`, n: [i, null, true] }));
    const value = { companies: [{ id: 1, name: 'Harbourside' }, 'not an object', 42], licenses, staff: { not: 'an array' }, unknown: [1] };
    const path = join(dir, 'file.json');
    writeFileSync(path, JSON.stringify(value));
    const source = fileSource(path);
    try {
      await scanAll(source);
      writeFileSync(path, 'not JSON any more');

      expect(await elementsOf(source, 'licenses')).toEqual(licenses.map((license, index) => [license, index]));
      expect(await elementsOf(source, 'companies')).toEqual(value.companies.map((element, index) => [element, index]));
      expect(await elementsOf(source, 'staff')).toEqual([]);
      expect(await elementsOf(source, 'sites')).toEqual([]);
      // Read again, as a second import of the same reading would.
      expect(await elementsOf(source, 'licenses')).toHaveLength(5_000);
    } finally {
      await source.close();
    }
  });

  it('leaves nothing in the temporary folder, while it is read and after it is closed', async () => {
    const path = join(dir, 'spooled.json');
    writeFileSync(path, JSON.stringify({ companies: [{ id: 1 }], licenses: [{ securityLicenseId: 1 }] }));
    const before = readdirSync(tmpdir()).filter((name) => name.startsWith('shiftgate-import-'));
    const source = fileSource(path);
    await scanAll(source);
    expect(await elementsOf(source, 'licenses')).toEqual([[{ securityLicenseId: 1 }, 0]]);
    // The spool's names are gone as soon as its files are open: nothing to clean up after a crash.
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('shiftgate-import-'))).toEqual(before);
    await source.close();
    await source.close();
    await expect(elementsOf(source, 'licenses')).resolves.toEqual([]);
  });
});
