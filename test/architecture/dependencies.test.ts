import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: IForbiddenRuleType[] };
/** The folders the layer rules name ("<folder>-imports-only-lower-folders"). */
const FOLDERS = config.forbidden.flatMap((rule) => /^(.+)-imports-only-lower-folders$/.exec(rule.name ?? '')?.[1] ?? []);

/** Every rule of .dependency-cruiser.cjs broken under `baseDir`, as "rule: from → to" lines. */
async function violations(baseDir: string): Promise<string[]> {
  const { output } = await cruise(
    ['src'],
    {
      baseDir,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    },
    { extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } },
  );
  const result = output as ICruiseResult;
  return (result.summary.violations ?? []).map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : ''}`);
}

describe('the direction of dependencies in src/', () => {
  it('src/ keeps every rule of .dependency-cruiser.cjs (no cycles, no upward import, drivers only in repositories)', async () => {
    const found = await violations(ROOT);
    expect(found, found.join('\n')).toEqual([]);
  });

  it('src/ holds the folders the rules know and config.ts, nothing else', () => {
    const folders = [...FOLDERS, 'generated'];
    expect(FOLDERS.length).toBeGreaterThan(8);
    const entries = readdirSync(join(ROOT, 'src'), { withFileTypes: true });
    const unknown = entries
      .filter((entry) => (entry.isDirectory() ? !folders.includes(entry.name) : entry.name !== 'config.ts'))
      .map((entry) => entry.name);
    expect(unknown).toEqual([]);
  });

  it('the rules do catch an upward import, a cycle and a driver outside the repositories', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shiftgate-depcruise-'));
    try {
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      const files: Record<string, string> = {
        'src/shared/low.ts': "import { high } from '../graphql/high.js';\nexport const low = () => high;\n",
        'src/graphql/high.ts': "import { low } from '../shared/low.js';\nexport const high = () => low;\n",
        'src/webhooks/query.ts': "import knex from 'knex';\nexport const query = knex;\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const rules = new Set((await violations(dir)).map((line) => line.split(':')[0]));
      expect([...rules].sort()).toEqual(
        ['database-drivers-only-in-repositories', 'no-circular', 'shared-imports-only-lower-folders'].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
