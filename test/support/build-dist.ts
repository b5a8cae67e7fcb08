import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/**
 * vitest global setup: tests that spawn bin/shiftgate.js run the compiled dist/, so bring it
 * up to date first. `npm test` builds in `pretest` already; this covers `npx vitest run …`
 * straight after an edit. `tsc -b` compares timestamps first, so an up-to-date dist/ costs
 * only tsc's start-up.
 */
export default function setup(): void {
  const root = resolve(import.meta.dirname, '../..');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  // tsc still writes the JavaScript when there are type errors; tests can run, so report and go on.
  if (run.status !== 0) console.warn(`npm run build reported problems (see npm run typecheck):\n${run.stdout}${run.stderr}`);
}
