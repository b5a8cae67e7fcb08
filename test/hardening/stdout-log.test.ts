import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOG_FLUSH_MS } from '../../src/shared/observability/logger.js';

/** The most sonic-boom (pino's destination) hands the operating system in one write. */
const MAX_WRITE_BYTES = 16 * 1024;

describe('the stdout logger', () => {
  const logger = resolve(import.meta.dirname, '../../dist/shared/observability/logger.js');

  /** A child that logs `count` lines, then ends as `ending` says; its stdout. */
  function run(count: number, ending: string): { stdout: string; status: number | null } {
    const script = `
      const { createLogger } = await import(${JSON.stringify(logger)});
      const log = createLogger('info');
      for (let n = 0; n < ${count}; n++) log.info({ n }, 'line');
      ${ending}
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    return { stdout: child.stdout, status: child.status };
  }

  const numbers = (stdout: string) => stdout.trim().split('\n').map((l) => (JSON.parse(l) as { n: number }).n);

  /**
   * What pino's exit flush promises: every line exactly once, in order, except that the one write
   * node's thread pool had not finished when the process began to exit may land later, among or
   * after the lines written synchronously at exit.
   */
  function expectEveryLineOnce(stdout: string, count: number): void {
    const lines = stdout.trim().split('\n');
    const received = numbers(stdout);
    expect([...received].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, n) => n));
    const breakAt = received.findIndex((n, i) => i > 0 && n < received[i - 1]!);
    if (breakAt === -1) return;
    // Out of order: the late write, one run of consecutive lines at most one write long; the rest in order.
    let end = breakAt + 1;
    while (end < received.length && received[end] === received[end - 1]! + 1) end++;
    const rest = [...received.slice(0, breakAt), ...received.slice(end)];
    expect(rest.every((n, i) => i === 0 || n > rest[i - 1]!)).toBe(true);
    const lateChars = lines.slice(breakAt, end).reduce((sum, l) => sum + l.length + 1, 0);
    expect(lateChars).toBeLessThanOrEqual(MAX_WRITE_BYTES + Math.max(...lines.map((l) => l.length + 1)));
  }

  it.each([
    ['process.exit right after the last line', 'process.exit(0);'],
    ['the event loop running empty', ''],
    ['an uncaught exception', "setTimeout(() => { throw new Error('boom'); }, 1);"],
  ])('writes every line once before the process ends through %s, in order but for the write under way', (_name, ending) => {
    // A few full writes and a partial one still waiting at the end.
    const count = Math.ceil((3.5 * MAX_WRITE_BYTES) / 60);
    const { stdout } = run(count, ending);
    expectEveryLineOnce(stdout, count);
  });

  it(`writes a line within ${LOG_FLUSH_MS} ms while the process runs on`, () => {
    const { stdout } = run(1, `
      const fs = await import('node:fs');
      setTimeout(() => { fs.writeSync(1, 'marker\\n'); process.exit(0); }, ${LOG_FLUSH_MS * 3});
    `);
    // The line reached stdout before the marker written well after the flush time.
    expect(stdout.indexOf('"n":0')).toBeGreaterThanOrEqual(0);
    expect(stdout.indexOf('"n":0')).toBeLessThan(stdout.indexOf('marker'));
  });
});
