import { randomUUID } from 'node:crypto';
import { open, rm, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanJsonFile, type SourceVisitor } from './json-file.js';
import { LineFile } from './line-file.js';
import { isSection, type Section } from './format.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/**
 * Where an import's records come from, read twice: once in the source's own order, to learn every
 * id and reference, then section by section in write order.
 */
export interface ImportSource {
  scan(visitor: SourceVisitor): Promise<void>;
  /** The elements of one section, in order; nothing when it is absent or not an array. */
  elements(section: Section, each: (value: unknown, index: number) => void | Promise<void>): Promise<void>;
  /** The line of the file a section's `index`-th element is on, where the source has lines. */
  lineOf?(section: Section, index: number): number | undefined;
  /** Frees what the readings hold; the source is not read again. */
  close(): Promise<void>;
}

/** An import file already parsed into memory (tests, the demo data set). */
export function memorySource(input: unknown): ImportSource {
  const sectionOf = (section: Section) => (isPlainObject(input) ? input[section] : undefined);
  return {
    async scan(visitor) {
      if (!isPlainObject(input)) return visitor.notObject(input);
      for (const key of Object.keys(input)) {
        visitor.key(key);
        const value = isSection(key) ? sectionOf(key) : null;
        if (Array.isArray(value)) value.forEach((element: unknown, index) => visitor.element(key as Section, index, element));
        else if (value !== undefined && value !== null) visitor.notArray(key as Section, value);
      }
    },
    async elements(section, each) {
      const value = sectionOf(section);
      if (Array.isArray(value)) for (let index = 0; index < value.length; index++) await each(value[index], index);
    },
    async close() {},
  };
}

/**
 * An import file read from disk a buffer at a time: a line-delimited one (`.ndjson`, `.jsonl`)
 * by line-file.ts, any other by json-file.ts. A syntax error throws JsonSyntaxError, a bound
 * exceeded or invalid text JsonRefusedError. `close` frees what the readings hold.
 */
export function fileSource(path: string): ImportSource {
  return /\.(ndjson|jsonl)$/i.test(path) ? new LineFile(path) : new SpooledJsonFile(path);
}

/**
 * Lines gathered before one write: enough to make the system calls few, few enough that the
 * lines die young (a megabyte of them outlived the young generation and cost full collections).
 */
const WRITE_CHARS = 64 * 1024;

/** The spool's files could not be made or written (a missing or full temporary folder). */
export class SpoolError extends Error {
  override name = 'SpoolError';

  constructor(folder: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    super(`cannot write its temporary files in ${folder}${code ? ` (${code})` : `: ${cause instanceof Error ? cause.message : String(cause)}`}`, { cause });
  }
}

const spoolFailed = (error: unknown): never => {
  throw new SpoolError(tmpdir(), error);
};

type SectionFile = { handle: FileHandle; pending: string[]; pendingChars: number };

/**
 * A JSON import file whose first reading keeps each element as a JSON line in a temporary file
 * per section, which the second reading takes back with JSON.parse instead of parsing the file
 * again. Each such file's name is removed once it is open: nothing is left in the temporary
 * folder whichever way the process ends.
 */
class SpooledJsonFile implements ImportSource {
  private readonly files = new Map<Section, SectionFile>();
  /** Files whose name could not be removed while open (not so on POSIX systems). */
  private readonly leftovers: string[] = [];

  constructor(private readonly path: string) {}

  scan(visitor: SourceVisitor): Promise<void> {
    return scanJsonFile(this.path, visitor, (section, value) => this.add(section, value));
  }

  /** Keeps one element; waits only when lines are written. */
  private add(section: Section, value: unknown): void | Promise<void> {
    const line = JSON.stringify(value);
    const file = this.files.get(section);
    if (!file) return this.openWith(section, line);
    file.pending.push(line);
    file.pendingChars += line.length + 1;
    if (file.pendingChars >= WRITE_CHARS) return this.flush(file);
  }

  async elements(section: Section, each: (value: unknown, index: number) => void | Promise<void>): Promise<void> {
    const file = this.files.get(section);
    if (!file) return;
    await this.flush(file);
    let index = 0;
    for await (const line of file.handle.readLines({ start: 0, autoClose: false })) {
      // Lines written from values the reader had already bounded and checked: JSON.parse is enough.
      const taken = each(JSON.parse(line), index++);
      if (taken) await taken;
    }
  }

  /** Frees the files; safe to call more than once. */
  async close(): Promise<void> {
    const files = [...this.files.values()];
    this.files.clear();
    await Promise.all(files.map((file) => file.handle.close()));
    await Promise.all(this.leftovers.splice(0).map((path) => rm(path, { force: true })));
  }

  private async openWith(section: Section, line: string): Promise<void> {
    // A new name, opened only if nothing has it: nobody can have put a file or a link there first.
    const path = join(tmpdir(), `shiftgate-import-${randomUUID()}-${section}.jsonl`);
    this.files.set(section, { handle: await open(path, 'wx+', 0o600).catch(spoolFailed), pending: [line], pendingChars: line.length + 1 });
    await unlink(path).catch(() => this.leftovers.push(path));
  }

  private async flush(file: SectionFile): Promise<void> {
    if (file.pending.length === 0) return;
    const text = `${file.pending.join('\n')}\n`;
    file.pending = [];
    file.pendingChars = 0;
    await file.handle.write(text).catch(spoolFailed);
  }
}
