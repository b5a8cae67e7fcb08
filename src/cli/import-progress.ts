import type { ImportProgress, ImportProgressSink } from '../import/import-data.js';

/** A terminal redraws at most this often; a large file reports far more steps than a person can read. */
const REDRAW_INTERVAL_MS = 100;

export interface ProgressLine {
  /** Shown before the file is parsed, when the number of records is not known yet. */
  start(): void;
  report: ImportProgressSink;
  /** Clears the line, so whatever is printed next starts on a clean one. */
  end(): void;
}

/** One line on a terminal, rewritten in place with `\r`. */
export function progressLine(out: NodeJS.WritableStream, now: () => number = Date.now): ProgressLine {
  let drawn = false;
  let lastDraw = 0;
  let lastStage: ImportProgress['stage'] | undefined;
  const draw = (text: string) => {
    out.write(`\r\x1b[K${text}`);
    drawn = true;
    lastDraw = now();
  };
  return {
    start: () => draw('importing: reading and validating the file…'),
    report(progress) {
      const changed = progress.stage !== lastStage || progress.done === progress.total;
      lastStage = progress.stage;
      if (!changed && now() - lastDraw < REDRAW_INTERVAL_MS) return;
      draw(`importing: ${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')} records ${progress.stage}`);
    },
    end() {
      if (drawn) out.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** No progress: what a pipe, a file or a log collector gets. */
export const NO_PROGRESS: ProgressLine = { start: () => {}, report: () => {}, end: () => {} };
