import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchema } from '../src/config.js';

const ROOT = join(import.meta.dirname, '..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

interface DocumentedRow {
  file: string;
  line: number;
  names: string[];
  /** The backticked values of the default column, in the order of `names`. */
  defaults: string[];
}

const backticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
const cells = (line: string): string[] => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());

/**
 * Rows of every settings table: a Markdown table whose first column is headed "variable" or
 * "setting". The first cell holds one or more backticked names ("`A` / `B`"), the second the
 * defaults in the same order.
 */
function settingsRows(): DocumentedRow[] {
  const rows: DocumentedRow[] = [];
  for (const file of DOCS) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    let inSettings = false;
    lines.forEach((line, i) => {
      if (!line.trimStart().startsWith('|')) {
        inSettings = false;
        return;
      }
      const [first = '', second = ''] = cells(line);
      const next = lines[i + 1] ?? '';
      if (/^\|[\s:|-]+\|$/.test(next.trim())) {
        inSettings = /^(variable|setting)$/i.test(first);
        return;
      }
      if (!inSettings || /^[\s:-]+$/.test(first)) return;
      rows.push({ file, line: i + 1, names: backticked(first).filter((n) => /^[A-Z][A-Z0-9_]+$/.test(n)), defaults: backticked(second) });
    });
  }
  return rows;
}

/** Each variable config.ts reads, with its default: the input side of its schema, as JSON Schema. */
const VARIABLES = z.toJSONSchema(configSchema, { io: 'input' }).properties ?? {};
const isVariable = (name: string): boolean => Object.hasOwn(VARIABLES, name);

describe('configuration and its documentation', () => {
  const rows = settingsRows();
  const documented = new Set(rows.flatMap((r) => r.names));

  it('finds the settings tables', () => {
    expect(new Set(rows.map((r) => r.file))).toEqual(new Set(['README.md', 'docs/operations.md', 'docs/security.md', 'docs/webhooks.md']));
  });

  it('documents every variable config.ts reads in a settings table', () => {
    const undocumented = Object.keys(VARIABLES).filter((name) => !documented.has(name));
    expect(undocumented).toEqual([]);
  });

  it('documents no variable that config.ts does not read', () => {
    const unknown = rows.flatMap((r) => r.names.filter((n) => !isVariable(n)).map((n) => `${r.file}:${r.line} ${n}`));
    expect(unknown).toEqual([]);
  });

  it('names every row of a settings table by its variable', () => {
    const nameless = rows.filter((r) => r.names.length === 0).map((r) => `${r.file}:${r.line}`);
    expect(nameless).toEqual([]);
  });

  it('gives the defaults config.ts has', () => {
    const wrong: string[] = [];
    for (const row of rows) {
      row.names.forEach((name, i) => {
        if (!isVariable(name)) return;
        const given = VARIABLES[name];
        const fallback = typeof given === 'object' && typeof given.default === 'string' ? given.default : undefined;
        // Empty and derived defaults are described in words ("empty", "at least 2 × time-out").
        if (fallback === undefined || fallback === '') return;
        const shown = row.defaults.length === row.names.length ? row.defaults[i] : undefined;
        if (shown !== fallback) wrong.push(`${row.file}:${row.line} ${name}: documented ${shown ?? '(none)'}, config.ts has ${fallback}`);
      });
    }
    expect(wrong).toEqual([]);
  });
});
