import { createHash, type Hash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { firstInvalidByte, JsonRefusedError, JsonSyntaxError, MAX_DEPTH, MAX_ELEMENT_CHARS, MAX_STRING_CHARS, notUtf8, REFUSED } from './json-file.js';
import { kindOf, SECTION_NAMES, SECTIONS, type Section } from './format.js';
import type { PathSegment } from './problems.js';
import { isPlainObject } from '../shared/is-plain-object.js';

declare global {
  interface String {
    /** ES2024 (Node 20 has it; the project's TypeScript library stops at ES2023). */
    isWellFormed(): boolean;
  }
}

/**
 * A line-delimited import file (`.ndjson`, `.jsonl`): each non-empty line is `{"<section>": record}`.
 * Lines are split from fixed-size reads, so a line over the bound is refused before it is held,
 * and each line is decoded, parsed with JSON.parse and then walked once for the bounds the JSON
 * reader keeps while it tokenizes (json-file.ts), with its messages.
 */

/** The longest line, in bytes: the JSON form's bound on one element. */
export const MAX_LINE_BYTES = MAX_ELEMENT_CHARS;
/** A record's own depth, as an element of its section's array in the JSON form (object, array, element). */
const RECORD_DEPTH = 3;
const READ_SIZE = 256 * 1024;

const isSection = (key: string): key is Section => Object.hasOwn(SECTIONS, key);

/** The file changed between the two readings of an import; the write is rolled back. */
export class SourceChangedError extends Error {
  override name = 'SourceChangedError';

  constructor(path: string) {
    super(`${path} changed while it was being imported`);
  }
}

/** Told about each record of the first reading, as an ImportSource's visitor is. */
export interface LineFileVisitor {
  key(section: Section): void;
  element(section: Section, index: number, value: unknown): void;
}

/**
 * Consecutive lines of one section, kept four numbers each (a file that interleaves its sections
 * line by line has as many runs as lines): where they start and end in the file, the index of
 * their first record and its line number.
 */
class Runs {
  private data = new Float64Array(16);
  count = 0;

  add(start: number, end: number, index: number, line: number): void {
    if ((this.count + 1) * 4 > this.data.length) {
      const wider = new Float64Array(this.data.length * 2);
      wider.set(this.data);
      this.data = wider;
    }
    this.data.set([start, end, index, line], this.count++ * 4);
  }

  extend(end: number): void {
    this.data[(this.count - 1) * 4 + 1] = end;
  }

  field(run: number, field: 0 | 1 | 2 | 3): number {
    return this.data[run * 4 + field]!;
  }

  /** The line of the `index`-th record. */
  lineOf(index: number): number | undefined {
    let low = 0;
    let high = this.count - 1;
    if (high < 0 || index < 0) return undefined;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.field(middle, 2) <= index) low = middle;
      else high = middle - 1;
    }
    return this.field(low, 3) + index - this.field(low, 2);
  }
}

interface SectionLines {
  runs: Runs;
  records: number;
  /** Of every line's bytes, in order, so the second reading can tell the file has changed. */
  digest: string;
  hash: Hash | null;
}

/**
 * Where each line of a block ends: `ends[k]` is the index in the block of line k's newline (the
 * block's length for a last line without one).
 */
type LineEnds = Int32Array;

/**
 * Calls `block` with the bytes `start` to `end` in blocks of whole lines (their newlines
 * included), numbered from `firstLine`: the lines a read holds whole, or one line read in pieces.
 * A line longer than MAX_LINE_BYTES is refused once that many of its bytes are seen, before more
 * are held. The bytes are only valid during the call.
 */
async function readBlocks(
  handle: FileHandle,
  start: number,
  end: number,
  firstLine: number,
  block: (bytes: Buffer, ends: LineEnds, count: number, line: number, offset: number) => void | Promise<void>,
): Promise<void> {
  const buffer = Buffer.allocUnsafeSlow(READ_SIZE);
  let ends = new Int32Array(4096);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = firstLine;
  let position = start;
  let blockStart = start;
  const tooLong = (): never => {
    throw new JsonRefusedError([], `longer than ${MAX_LINE_BYTES.toLocaleString('en')} bytes`, line);
  };
  while (position < end) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(READ_SIZE, end - position), position);
    if (bytesRead === 0) break;
    const data = buffer.subarray(0, bytesRead);
    let from = 0;
    let newline = data.indexOf(0x0a);
    if (pendingBytes > 0) {
      if (newline < 0 || pendingBytes + newline > MAX_LINE_BYTES) {
        pendingBytes += newline < 0 ? bytesRead : newline;
        if (pendingBytes > MAX_LINE_BYTES) tooLong();
        pending.push(Buffer.from(data));
        position += bytesRead;
        continue;
      }
      const bytes = Buffer.concat([...pending, data.subarray(0, newline + 1)]);
      pending = [];
      pendingBytes = 0;
      ends[0] = bytes.length - 1;
      await block(bytes, ends, 1, line++, blockStart);
      from = newline + 1;
      blockStart = position + from;
      newline = data.indexOf(0x0a, from);
    }
    let count = 0;
    let next = from;
    for (; newline >= 0; newline = data.indexOf(0x0a, next)) {
      if (newline - next > MAX_LINE_BYTES) {
        line += count;
        tooLong();
      }
      if (count === ends.length) {
        const wider = new Int32Array(ends.length * 2);
        wider.set(ends);
        ends = wider;
      }
      ends[count++] = newline - from;
      next = newline + 1;
    }
    if (count > 0) {
      await block(data.subarray(from, next), ends, count, line, blockStart);
      line += count;
      blockStart = position + next;
    }
    if (next < bytesRead) {
      pendingBytes = bytesRead - next;
      if (pendingBytes > MAX_LINE_BYTES) tooLong();
      pending.push(Buffer.from(data.subarray(next)));
    }
    position += bytesRead;
  }
  if (pendingBytes > 0) {
    const bytes = Buffer.concat(pending);
    ends[0] = bytes.length;
    await block(bytes, ends, 1, line, blockStart);
  }
}

/** Whether a line holds only blanks (a carriage return included): it holds no record. */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d) return false;
  }
  return true;
}

/** The decoded text of a block, without the byte-order mark a file may start with. */
function withoutBom(text: string, offset: number): string {
  return offset === 0 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Refuses, at its path, what the JSON reader refuses while it tokenizes. */
function walk(value: unknown, path: PathSegment[], depth: number, line: number): void {
  if (typeof value === 'string') {
    if (value.length > MAX_STRING_CHARS) throw new JsonRefusedError([...path], REFUSED.long('text'), line);
    if (!value.isWellFormed()) throw new JsonRefusedError([...path], REFUSED.surrogate, line);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new JsonRefusedError([...path], REFUSED.number, line);
  } else if (typeof value === 'object' && value !== null) {
    if (depth > MAX_DEPTH) throw new JsonRefusedError([...path], REFUSED.deep, line);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i], path, depth + 1, line);
        path.pop();
      }
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // At the object's path, as the JSON reader reports a key.
      if (key.length > MAX_STRING_CHARS) throw new JsonRefusedError([...path], REFUSED.long('key'), line);
      if (!key.isWellFormed()) throw new JsonRefusedError([...path], REFUSED.surrogate, line);
      path.push(key);
      walk(record[key], path, depth + 1, line);
      path.pop();
    }
  }
}

/**
 * A line-delimited import file. The first reading checks every line and notes where each
 * section's lines are; the second reads those lines again with JSON.parse alone, and throws
 * SourceChangedError (inside the import's transaction) when they are not the bytes the first
 * reading checked.
 */
export class LineFile {
  private handle: FileHandle | null = null;
  private readonly sections = new Map<Section, SectionLines>();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(private readonly path: string) {}

  async scan(visitor: LineFileVisitor): Promise<void> {
    this.handle ??= await open(this.path, 'r');
    const { size } = await this.handle.stat();
    let previous: SectionLines | null = null;
    await readBlocks(this.handle, 0, size, 1, (bytes, ends, count, firstLine, offset) => {
      let text: string;
      try {
        text = withoutBom(this.decoder.decode(bytes), offset);
      } catch {
        const invalid = firstInvalidByte(bytes);
        let k = 0;
        while (ends[k]! < invalid) k++;
        throw new JsonRefusedError([], notUtf8(bytes, invalid, offset), firstLine + k);
      }
      // Consecutive lines of one section are hashed as one span of the block: a hash update per
      // line cost more than the hashing.
      let span: Hash | null = null;
      let spanStart = 0;
      let spanEnd = 0;
      const flush = () => {
        span?.update(bytes.subarray(spanStart, spanEnd));
        span = null;
      };
      let at = 0;
      for (let k = 0; k < count; k++) {
        let lineEnd = text.indexOf('\n', at);
        if (lineEnd < 0) lineEnd = text.length;
        const lineText = text.slice(at, lineEnd);
        at = lineEnd + 1;
        const line = firstLine + k;
        const byteStart = k === 0 ? 0 : ends[k - 1]! + 1;
        const byteEnd = Math.min(ends[k]! + 1, bytes.length);
        if (isBlank(lineText)) {
          flush();
          previous = null;
          continue;
        }
        let value: unknown;
        try {
          value = JSON.parse(lineText);
        } catch (error) {
          throw new JsonSyntaxError(`line ${line}: ${error instanceof Error ? error.message : String(error)}`);
        }
        const section = sectionOf(value, line);
        const record = (value as Record<Section, unknown>)[section];
        let lines = this.sections.get(section);
        if (!lines) {
          lines = { runs: new Runs(), records: 0, digest: '', hash: createHash('sha1') };
          this.sections.set(section, lines);
          visitor.key(section);
        }
        const index = lines.records++;
        walk(record, [section, index], RECORD_DEPTH, line);
        // A run ends after its last line's newline, when it has one.
        if (previous === lines) lines.runs.extend(offset + byteEnd);
        else lines.runs.add(offset + byteStart, offset + byteEnd, index, line);
        previous = lines;
        if (span !== lines.hash || spanEnd !== byteStart) {
          flush();
          span = lines.hash;
          spanStart = byteStart;
        }
        spanEnd = byteEnd;
        visitor.element(section, index, record);
      }
      flush();
    });
    for (const lines of this.sections.values()) {
      lines.digest = lines.hash!.digest('hex');
      lines.hash = null;
    }
  }

  async elements(section: Section, each: (value: unknown, index: number) => void | Promise<void>): Promise<void> {
    const lines = this.sections.get(section);
    if (!lines || !this.handle) return;
    const hash = createHash('sha1');
    const changed = () => new SourceChangedError(this.path);
    let index = 0;
    const { runs } = lines;
    for (let run = 0; run < runs.count; run++) {
      await readBlocks(this.handle, runs.field(run, 0), runs.field(run, 1), runs.field(run, 3), async (bytes, _ends, count, _line, offset) => {
        hash.update(bytes);
        // Lines the first reading checked, unless the file changed, which the hash tells at the end.
        const text = withoutBom(bytes.toString('utf8'), offset);
        let at = 0;
        for (let k = 0; k < count; k++) {
          let lineEnd = text.indexOf('\n', at);
        if (lineEnd < 0) lineEnd = text.length;
          let value: unknown;
          try {
            value = JSON.parse(text.slice(at, lineEnd));
          } catch {
            throw changed();
          }
          at = lineEnd + 1;
          if (!isPlainObject(value) || !Object.hasOwn(value, section)) throw changed();
          const taken = each(value[section], index++);
          if (taken) await taken;
        }
      }).catch((error: unknown) => {
        throw error instanceof JsonRefusedError ? changed() : error;
      });
    }
    if (index !== lines.records || hash.digest('hex') !== lines.digest) throw changed();
  }

  /** The line of a section's `index`-th record. */
  lineOf(section: Section, index: number): number | undefined {
    return this.sections.get(section)?.runs.lineOf(index);
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    this.sections.clear();
    await handle?.close();
  }
}

/** The section a line's object names; anything else refuses the line. */
function sectionOf(value: unknown, line: number): Section {
  if (!isPlainObject(value)) throw new JsonRefusedError([], `expected an object with one member named after a section, got ${kindOf(value)}`, line);
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new JsonRefusedError([], `expected an object with one member named after a section, got ${keys.length} members`, line);
  const key = keys[0]!;
  if (!isSection(key)) throw new JsonRefusedError([key], `unknown section (expected ${SECTION_NAMES.join(', ')})`, line);
  return key;
}
