import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

/**
 * vitest global setup: tests that spawn bin/shiftgate.js run the compiled dist/, so bring it
 * up to date first when any source is newer than the last build. `npm test` builds in
 * `pretest` already; this covers `npx vitest run …` straight after an edit.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const BUILD_INFO = join(ROOT, 'dist/.tsbuildinfo');

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function builtAt(): number {
  try {
    return statSync(BUILD_INFO).mtimeMs;
  } catch {
    return -1;
  }
}

export default function setup(): void {
  const sources = Math.max(newestChange(join(ROOT, 'src')), newestChange(join(ROOT, 'tsconfig.json')), newestChange(join(ROOT, 'tsconfig.build.json')));
  if (builtAt() >= sources) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  // Exit 2 means type errors with the JavaScript still written: the tests can run, so report and go on.
  if (run.status === 2) console.warn(`dist/ built with type errors (see npm run typecheck):\n${run.stdout}`);
  else if (run.status !== 0) throw new Error(`npm run build failed:\n${run.stdout}${run.stderr}`);
  // tsc leaves the build info untouched when nothing it emits changed (a touched file): mark it current.
  const now = new Date();
  utimesSync(BUILD_INFO, now, now);
}
