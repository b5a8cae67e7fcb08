/** Where a batch hands its chunks: an asynchronous writer that can also write what it holds at once. */
export interface ChunkSink {
  write(chunk: string): boolean;
  /**
   * Writes what the sink holds and then `last`, both before returning. `last` is not passed to
   * `write`: an asynchronous writer would start a write of it that the process may not outlive.
   */
  flushSync(last?: string): void;
}

export interface LineBatchOptions {
  /** Lines are handed on once this many characters wait. */
  batchChars: number;
  /** ...and at the latest this long after the oldest waiting one was written. */
  flushMs: number;
}

/**
 * Gathers log lines and hands them to the sink in chunks: one `write` per LOG_BATCH_BYTES of
 * lines instead of one per line. Lines are kept as a list and joined once per chunk, so adding
 * one costs a push, whatever is already waiting. (sonic-boom's own `minLength` appends each line
 * to one growing string and measures that string's UTF-8 length on every write: a busy
 * gateway copied and scanned up to 8 KB per request, bench/README.md, round six.)
 *
 * Bounded: at most `batchChars` characters wait here; the sink bounds what it holds itself.
 */
export class LineBatch {
  private lines: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: ChunkSink,
    private readonly options: LineBatchOptions,
  ) {}

  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.options.batchChars) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.options.flushMs);
      this.timer.unref();
    }
    return true;
  }

  /**
   * Hands what waits to the sink now. `done` (pino's `logger.flush(cb)`) is called once the lines
   * are handed on, as sonic-boom calls it without a minimum length: not once they are written.
   */
  flush(done?: (error?: Error) => void): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.lines.length > 0) this.handOn();
    done?.();
  }

  private handOn(): void {
    const chunk = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.sink.write(chunk);
  }

  /** Writes everything, waiting here and in the sink, before returning (the process is about to exit). */
  flushSync(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const last = this.lines.length > 0 ? this.lines.join('') : undefined;
    this.lines = [];
    this.chars = 0;
    this.sink.flushSync(last);
  }
}
