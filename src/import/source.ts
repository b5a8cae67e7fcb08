import { scanJsonFile, type SourceVisitor } from './json-file.js';
import { ElementSpool } from './spool.js';
import { scanLineFile } from './line-file.js';
import { isSection, type Section } from './format.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import type { IntList } from './id-index.js';

/**
 * Where an import's records come from. An import reads its source twice: once in whatever
 * order the source lists its sections, to learn every id and reference, then section by
 * section in write order.
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
  return {
    async scan(visitor) {
      if (!isPlainObject(input)) {
        visitor.notObject(input);
        return;
      }
      for (const key of Object.keys(input)) {
        visitor.key(key);
        if (!isSection(key)) continue;
        const value = input[key];
        if (value === undefined || value === null) continue;
        if (!Array.isArray(value)) visitor.notArray(key, value);
        else value.forEach((element: unknown, index) => visitor.element(key, index, element));
      }
    },
    async elements(section, each) {
      const value = isPlainObject(input) ? input[section] : undefined;
      if (!Array.isArray(value)) return;
      for (let index = 0; index < value.length; index++) await each(value[index], index);
    },
    async close() {},
  };
}

/** A file named so is line-delimited (line-file.ts), one record a line. */
export const LINE_FILE = /\.(ndjson|jsonl)$/i;

/**
 * An import file read from disk a buffer at a time: a line-delimited one (LINE_FILE) by
 * line-file.ts, any other by json-file.ts; a syntax error throws JsonSyntaxError, a bound
 * exceeded or invalid text JsonRefusedError. The file is read once: the first reading keeps
 * every element of a section in a temporary spool (spool.ts), which the second reading takes
 * them back from. `close` frees the spool.
 */
export function fileSource(path: string): ImportSource {
  const spool = new ElementSpool();
  const elements = (section: Section, each: (value: unknown, index: number) => void | Promise<void>) => spool.read(section, each);
  const close = () => spool.close();
  if (!LINE_FILE.test(path)) {
    return { scan: (visitor) => scanJsonFile(path, visitor, (section, value) => spool.add(section, `{"${section}":${JSON.stringify(value)}}`)), elements, close };
  }
  const lines = new Map<Section, IntList>();
  return {
    scan: (visitor) => scanLineFile(path, visitor, lines, (section, text) => spool.add(section, text)),
    elements,
    lineOf: (section, index) => lines.get(section)?.at(index),
    close,
  };
}
