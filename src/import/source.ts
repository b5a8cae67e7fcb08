import { scanJsonFile } from './json-file.js';
import { ElementSpool } from './spool.js';
import { LineFile } from './line-file.js';
import { SECTIONS, type Section } from './format.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/** Told about an import's top level and every element, in the order the source holds them. */
export interface SourceVisitor {
  /** The top level is not an object. */
  notObject(value: unknown): void;
  /** A top-level key, known or not. */
  key(key: string): void;
  /** A section whose value is present but not an array (null counts as absent). */
  notArray(section: Section, value: unknown): void;
  element(section: Section, index: number, value: unknown): void;
}

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

const isSection = (key: string): key is Section => Object.hasOwn(SECTIONS, key);

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
 * line-file.ts, any other by json-file.ts; a syntax error throws
 * JsonSyntaxError, a bound exceeded or invalid text JsonRefusedError. The file is parsed once:
 * the first reading keeps every element of a section in a temporary spool (spool.ts), which the
 * second reading takes them back from. `close` frees the spool.
 */
export function fileSource(path: string): ImportSource {
  if (LINE_FILE.test(path)) return new LineFile(path);
  const spool = new ElementSpool();
  return {
    async scan(visitor) {
      let index = 0;
      await scanJsonFile(path, {
        root: (value) => visitor.notObject(value),
        member(key) {
          visitor.key(key);
          index = 0;
          // An unknown key is reported as such; its value is stepped over, not parsed.
          return isSection(key) ? 'elements' : 'skip';
        },
        element(key, value) {
          visitor.element(key as Section, index++, value);
          return spool.add(key as Section, value);
        },
        value(key, value) {
          if (value !== null) visitor.notArray(key as Section, value);
        },
      });
    },
    elements: (section, each) => spool.read(section, each),
    close: () => spool.close(),
  };
}
