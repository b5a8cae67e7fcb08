import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineBatch, type ChunkSink } from '../../src/shared/observability/line-batch.js';
import { LOG_BATCH_BYTES, LOG_FLUSH_MS } from '../../src/shared/observability/logger.js';

function recordingSink(): ChunkSink & { chunks: string[]; syncFlushes: number; syncChunks: string[] } {
  const sink = {
    chunks: [] as string[],
    syncFlushes: 0,
    syncChunks: [] as string[],
    write(chunk: string) {
      sink.chunks.push(chunk);
      return true;
    },
    flushSync(last?: string) {
      sink.syncFlushes++;
      if (last !== undefined) sink.syncChunks.push(last);
    },
  };
  return sink;
}

const line = (n: number, width = 100) => `${String(n).padStart(width - 1, '-')}\n`;

describe('LineBatch: log lines handed on in chunks', () => {
  afterEach(() => vi.useRealTimers());

  it('hands nothing on until the batch is full, then all of it as one chunk, in order', () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { batchChars: 1000, flushMs: 100 });
    for (let n = 0; n < 9; n++) batch.write(line(n));
    expect(sink.chunks).toEqual([]);
    batch.write(line(9));
    expect(sink.chunks).toEqual([Array.from({ length: 10 }, (_, n) => line(n)).join('')]);
    batch.write(line(10));
    expect(sink.chunks).toHaveLength(1);
  });

  it('hands a partial batch on once flushMs have passed since its first line', () => {
    vi.useFakeTimers();
    const sink = recordingSink();
    const batch = new LineBatch(sink, { batchChars: 1000, flushMs: 100 });
    batch.write(line(1));
    vi.advanceTimersByTime(60);
    batch.write(line(2));
    vi.advanceTimersByTime(39);
    expect(sink.chunks).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sink.chunks).toEqual([line(1) + line(2)]);
    // Nothing waits: no timer runs, and a later line starts a new one.
    expect(vi.getTimerCount()).toBe(0);
    batch.write(line(3));
    vi.advanceTimersByTime(100);
    expect(sink.chunks).toEqual([line(1) + line(2), line(3)]);
  });

  it('a full batch stops its timer: what follows waits for a timer of its own', () => {
    vi.useFakeTimers();
    const sink = recordingSink();
    const batch = new LineBatch(sink, { batchChars: 200, flushMs: 100 });
    batch.write(line(1));
    batch.write(line(2));
    expect(sink.chunks).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('flushSync has the sink write what it holds and then what waits here, never through its asynchronous write', () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { batchChars: 1000, flushMs: 100 });
    batch.write(line(1));
    batch.write(line(2));
    batch.flushSync();
    expect(sink.chunks).toEqual([]);
    expect(sink.syncChunks).toEqual([line(1) + line(2)]);
    expect(sink.syncFlushes).toBe(1);
  });

  it("calls pino's flush callback once the lines are handed on", () => {
    const sink = recordingSink();
    const batch = new LineBatch(sink, { batchChars: 1000, flushMs: 100 });
    batch.write(line(1));
    const done = vi.fn();
    batch.flush(done);
    expect(sink.chunks).toEqual([line(1)]);
    expect(done).toHaveBeenCalledTimes(1);
    batch.flush(done);
    expect(sink.chunks).toHaveLength(1);
    expect(done).toHaveBeenCalledTimes(2);
  });
});

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
   * What the exit hook promises (src/shared/observability/logger.ts): every line exactly once, in
   * order, except that the one batch whose write node's thread pool had not finished when the
   * process began to exit may land after the lines the hook wrote.
   */
  function expectEveryLineOnce(stdout: string, count: number): void {
    const lines = stdout.trim().split('\n');
    const received = numbers(stdout);
    expect([...received].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, n) => n));
    const breakAt = received.findIndex((n, i) => i > 0 && n < received[i - 1]!);
    if (breakAt === -1) return;
    // Out of order: the late batch, one run of consecutive lines at the very end, at most one batch long.
    const late = received.slice(breakAt);
    expect(late.every((n, i) => i === 0 || n === late[i - 1]! + 1)).toBe(true);
    expect(received.slice(0, breakAt).every((n, i) => i === 0 || n > received[i - 1]!)).toBe(true);
    const lateChars = lines.slice(breakAt).reduce((sum, l) => sum + l.length + 1, 0);
    expect(lateChars).toBeLessThanOrEqual(LOG_BATCH_BYTES + Math.max(...lines.map((l) => l.length + 1)));
  }

  it.each([
    ['process.exit right after the last line', 'process.exit(0);'],
    ['the event loop running empty', ''],
    ['an uncaught exception', "setTimeout(() => { throw new Error('boom'); }, 1);"],
  ])('writes every line once before the process ends through %s, in order but for the batch under way', (_name, ending) => {
    // A few full batches and a partial one still waiting at the end.
    const count = Math.ceil((3.5 * LOG_BATCH_BYTES) / 60);
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
