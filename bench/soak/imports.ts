import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPANIES, type CompanyId, type DataChanger } from './data.js';
import { runCli } from './server-process.js';

/** One `shiftgate import` run. */
export interface ImportRecord {
  companyId: CompanyId;
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
 * the next batch of one company's changes, so the server sees events written by another
 * process, as in production. One loop per company, started apart: now and then two imports
 * are in flight at once, as when two feeds run on their own schedules.
 */
class ImportLoop {
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly companyId: CompanyId,
    private readonly data: DataChanger,
    private readonly env: Record<string, string>,
    private readonly dir: string,
    private readonly options: { intervalMs: number; offsetMs: number },
    private readonly stats: ImportStats,
  ) {}

  start(): void {
    this.stopping = false;
    this.loop = this.run(this.options.offsetMs);
  }

  /** Waits for the import in flight; starts no other. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async run(offsetMs: number): Promise<void> {
    await this.pause(offsetMs);
    while (!this.stopping) {
      const started = Date.now();
      await this.once();
      await this.pause(Math.max(0, this.options.intervalMs - (Date.now() - started)));
    }
  }

  private async pause(wait: number): Promise<void> {
    if (this.stopping) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  async once(): Promise<boolean> {
    const file = join(this.dir, `soak-import-${this.companyId}.json`);
    writeFileSync(file, JSON.stringify(this.data.nextImport(this.companyId)));
    const startedAt = Date.now();
    const result = await runCli(['import', file], this.env, 60_000);
    const ok = result.code === 0;
    this.stats.runs.push({ companyId: this.companyId, startedAt, endedAt: Date.now(), ok });
    if (ok) this.data.committed(this.companyId);
    else {
      this.data.abandoned(this.companyId);
      this.stats.failures++;
      const why = result.timedOut ? 'timed out after 60 s' : `exit ${result.code}: ${result.stderr.trim().split('\n').slice(0, 3).join(' | ')}`;
      if (this.stats.samples.length < 3) this.stats.samples.push(why.slice(0, 300));
    }
    return ok;
  }
}

/** One import loop per company, evenly staggered over the interval, sharing one record of runs. */
export class ImportLanes {
  readonly stats: ImportStats = { runs: [], failures: 0, samples: [] };
  private readonly loops: ImportLoop[];

  constructor(data: DataChanger, env: Record<string, string>, dir: string, intervalMs: number) {
    this.loops = COMPANIES.map(
      (companyId, i) => new ImportLoop(companyId, data, env, dir, { intervalMs, offsetMs: (i * intervalMs) / COMPANIES.length }, this.stats),
    );
  }

  start(): void {
    for (const loop of this.loops) loop.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }
}
