import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataChanger } from './data.js';
import { runCli } from './server-process.js';

/** One `shiftgate import` run. */
export interface ImportRecord {
  startedAt: number;
  endedAt: number;
  ok: boolean;
}

export interface ImportStats {
  runs: ImportRecord[];
  failures: number;
  samples: string[];
}

/**
 * Runs `shiftgate import FILE` as a child process every few seconds, one at a time, each with
 * the next batch of changes, so the server sees events written by another process, as in
 * production.
 */
export class ImportLoop {
  readonly stats: ImportStats = { runs: [], failures: 0, samples: [] };
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly data: DataChanger,
    private readonly env: Record<string, string>,
    private readonly dir: string,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.stopping = false;
    this.loop = this.run();
  }

  /** Waits for the import in flight; starts no other. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const started = Date.now();
      await this.once();
      const wait = Math.max(0, this.intervalMs - (Date.now() - started));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  async once(): Promise<boolean> {
    const file = join(this.dir, 'soak-import.json');
    writeFileSync(file, JSON.stringify(this.data.nextImport()));
    const startedAt = Date.now();
    const result = await runCli(['import', file], this.env, 60_000);
    const ok = result.code === 0;
    this.stats.runs.push({ startedAt, endedAt: Date.now(), ok });
    if (ok) this.data.committed();
    else {
      this.data.abandoned();
      this.stats.failures++;
      const why = result.timedOut ? 'timed out after 60 s' : `exit ${result.code}: ${result.stderr.trim().split('\n').slice(0, 3).join(' | ')}`;
      if (this.stats.samples.length < 3) this.stats.samples.push(why.slice(0, 300));
    }
    return ok;
  }
}
