import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, linesOf, runCli } from '../support/cli-process.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the build', () => {
  it('bin/shiftgate.js without dist/ prints one line telling to build, and exits 1', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'shiftgate-nodist-'));
    try {
      mkdirSync(join(copy, 'bin'));
      copyFileSync(BIN, join(copy, 'bin', 'shiftgate.js'));
      const run = await runCli(['--help'], {}, 20_000, join(copy, 'bin', 'shiftgate.js'));
      expect(run.code).toBe(1);
      const lines = linesOf(run.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/npm run build/);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('the bin runs the compiled JavaScript, and tsx is a development dependency only', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const bin = readFileSync(BIN, 'utf8');
    expect(bin).not.toMatch(/tsx|\.ts['"]/);
    // The CLI's entry is src/cli/main.ts, compiled (rootDir src) to dist/cli/main.js.
    expect(bin).toContain("'../dist/cli/main.js'");
    expect(existsSync(join(ROOT, 'src/cli/main.ts'))).toBe(true);
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
    expect(pkg.scripts.build).toMatch(/^tsc -b tsconfig\.build\.json$/);
    for (const hook of ['prepare', 'prestart', 'pretest']) expect(pkg.scripts[hook], hook).toBe('npm run build');
    expect(pkg.scripts.start).toMatch(/bin\/shiftgate\.js serve --demo$/);
  });
});
