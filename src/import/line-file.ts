import { createHash, type Hash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { firstInvalidByte, JsonRefusedError, JsonSyntaxError, MAX_DEPTH, MAX_ELEMENT_CHARS, MAX_STRING_CHARS, notUtf8, REFUSED, type SourceVisitor } from './json-file.js';
import { isSection, kindOf, SECTION_NAMES, type Section } from './format.js';
import { IntList } from './id-index.js';
import type { PathSegment } from './problems.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/** The longest line, in bytes: the JSON form's bound on one element. */
const MAX_LINE_BYTES = MAX_ELEMENT_CHARS;
/** A record's own depth, as an element of its section's array in the JSON form (object, array, element). */
const RECORD_DEPTH = 3;
const READ_SIZE = 256 * 1024;

/** The file changed between the two readings of an import; the write is rolled back. */
export class SourceChangedError extends Error {
  override name = 'SourceChangedError';

  constructor(path: string) {
    super(`${path} changed while it was being imported`);
  }
}

interface SectionLines {
  /** Where each run of consecutive lines of the section starts and ends in the file, two numbers a run. */
  runs: number[];
  /** The line of each record. */
  lineNumbers: IntList;
  /** Of every line's bytes, in order, so the second reading can tell the file has changed. */
  hash: Hash;
  digest: string;
}

/** A line of blanks (a carriage return included) holds no record. */
const BLANK = /^[ \t\r]*$/;

/** Calls `each` with the text of every line of a decoded block, without the byte-order mark a file may start with. */
async function eachLine(text: string, count: number, offset: number, each: (text: string, k: number) => void | Promise<void>): Promise<void> {
  let at = offset === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let k = 0; k < count; k++) {
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd < 0) lineEnd = text.length;
    const taken = each(text.slice(at, lineEnd), k);
    if (taken) await taken;
    at = lineEnd + 1;
  }
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
    for (const key of Object.keys(value)) {
      // At the object's path, as the JSON reader reports a key.
      if (key.length > MAX_STRING_CHARS) throw new JsonRefusedError([...path], REFUSED.long('key'), line);
      if (!key.isWellFormed()) throw new JsonRefusedError([...path], REFUSED.surrogate, line);
      path.push(key);
      walk((value as Record<string, unknown>)[key], path, depth + 1, line);
      path.pop();
    }
  }
}

/** The section a line's object names; anything else refuses the line. */
function sectionOf(value: unknown, line: number): Section {
  const expected = 'expected an object with one member named after a section, got';
  if (!isPlainObject(value)) throw new JsonRefusedError([], `${expected} ${kindOf(value)}`, line);
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new JsonRefusedError([], `${expected} ${keys.length} members`, line);
  if (!isSection(keys[0]!)) throw new JsonRefusedError([keys[0]!], `unknown section (expected ${SECTION_NAMES.join(', ')})`, line);
  return keys[0];
}

/**
 * A line-delimited import file (`.ndjson`, `.jsonl`), each non-blank line `{"<section>": record}`.
 * The first reading splits fixed-size reads into lines (a line over the bound is refused before
 * it is held whole), decodes each read's lines at once, parses each with JSON.parse and walks it
 * for the JSON reader's bounds, and notes where each section's lines are. The second reads
 * those lines again with JSON.parse alone, and throws SourceChangedError (inside the import's
 * transaction) when they are not the bytes the first reading checked.
 */
export class LineFile {
  private handle: FileHandle | null = null;
  private readonly sections = new Map<Section, SectionLines>();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  // Room for the longest line and a read after it: an unfinished line moves to the start.
  private readonly buffer = Buffer.allocUnsafeSlow(MAX_LINE_BYTES + READ_SIZE);

  constructor(private readonly path: string) {}

  async scan(visitor: SourceVisitor): Promise<void> {
    this.handle ??= await open(this.path, 'r');
    const { size } = await this.handle.stat();
    let previous: SectionLines | null = null;
    await this.readBlocks(0, size, async (bytes, count, firstLine, offset) => {
      let text: string;
      try {
        text = this.decoder.decode(bytes);
      } catch {
        const invalid = firstInvalidByte(bytes);
        const line = firstLine + bytes.subarray(0, invalid).filter((byte) => byte === 0x0a).length;
        throw new JsonRefusedError([], notUtf8(bytes, invalid, offset), line);
      }
      // Consecutive lines of one section are hashed as one span of the block: a hash update per
      // line cost more than the hashing.
      let span: Hash | null = null;
      let spanStart = 0;
      let byteEnd = 0;
      const flush = (spanEnd: number) => {
        span?.update(bytes.subarray(spanStart, spanEnd));
        span = null;
      };
      await eachLine(text, count, offset, (lineText, k) => {
        const line = firstLine + k;
        const byteStart = byteEnd;
        // After the line's newline; the block's end for a last line without one.
        byteEnd = bytes.indexOf(0x0a, byteStart) + 1 || bytes.length;
        if (BLANK.test(lineText)) {
          flush(byteStart);
          previous = null;
          return;
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
          lines = { runs: [], lineNumbers: new IntList(), hash: createHash('sha1'), digest: '' };
          this.sections.set(section, lines);
          visitor.key(section);
        }
        const index = lines.lineNumbers.length;
        lines.lineNumbers.push(line);
        walk(record, [section, index], RECORD_DEPTH, line);
        if (previous === lines) lines.runs[lines.runs.length - 1] = offset + byteEnd;
        else lines.runs.push(offset + byteStart, offset + byteEnd);
        previous = lines;
        if (span !== lines.hash) {
          flush(byteStart);
          span = lines.hash;
          spanStart = byteStart;
        }
        visitor.element(section, index, record);
      });
      flush(byteEnd);
    });
    for (const lines of this.sections.values()) lines.digest = lines.hash.digest('hex');
  }

  async elements(section: Section, each: (value: unknown, index: number) => void | Promise<void>): Promise<void> {
    const lines = this.sections.get(section);
    if (!lines || !this.handle) return;
    const hash = createHash('sha1');
    const changed = () => new SourceChangedError(this.path);
    let index = 0;
    for (let run = 0; run < lines.runs.length; run += 2) {
      // Lines the first reading checked, unless the file changed, which the hash tells at the end
      // (a refusal here too: its line numbers do not matter).
      await this.readBlocks(lines.runs[run]!, lines.runs[run + 1]!, (bytes, count, _line, offset) => {
        hash.update(bytes);
        return eachLine(bytes.toString('utf8'), count, offset, (text) => {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            throw changed();
          }
          if (!isPlainObject(value) || !Object.hasOwn(value, section)) throw changed();
          return each(value[section], index++);
        });
      }).catch((error: unknown) => {
        throw error instanceof JsonRefusedError ? changed() : error;
      });
    }
    if (index !== lines.lineNumbers.length || hash.digest('hex') !== lines.digest) throw changed();
  }

  /** The line of a section's `index`-th record. */
  lineOf(section: Section, index: number): number | undefined {
    const lines = this.sections.get(section)?.lineNumbers;
    return lines && index >= 0 && index < lines.length ? lines.at(index) : undefined;
  }

  /**
   * Calls `block` with the bytes `start` to `end` in blocks of whole lines (their newlines
   * included): the `count` lines each read completes, the first numbered `line` (from 1), at byte
   * `offset` of the file. A line longer than MAX_LINE_BYTES is refused once its bytes are seen,
   * before more are read. The bytes are only valid during the call.
   */
  private async readBlocks(start: number, end: number, block: (bytes: Buffer, count: number, line: number, offset: number) => void | Promise<void>): Promise<void> {
    const { buffer } = this;
    let held = 0;
    let line = 1;
    let offset = start;
    const tooLong = (at: number): never => {
      throw new JsonRefusedError([], `longer than ${MAX_LINE_BYTES.toLocaleString('en')} bytes`, at);
    };
    for (let position = start; ; ) {
      const { bytesRead } = position < end ? await this.handle!.read(buffer, held, Math.min(READ_SIZE, end - position), position) : { bytesRead: 0 };
      position += bytesRead;
      const data = buffer.subarray(0, held + bytesRead);
      let from = 0;
      let count = 0;
      let next = 0;
      const flush = async () => {
        if (count > 0) await block(data.subarray(from, next), count, line, offset + from);
        line += count;
        count = 0;
        from = next;
      };
      for (let newline = data.indexOf(0x0a, held); newline >= 0; newline = data.indexOf(0x0a, next)) {
        if (newline - next > MAX_LINE_BYTES) tooLong(line + count);
        count++;
        next = newline + 1;
        // A line continued from the last read is a block of its own.
        if (from === 0 && held > 0) await flush();
      }
      if (bytesRead === 0 && next < data.length) {
        // The last line, without its newline.
        count++;
        next = data.length;
      }
      await flush();
      offset += next;
      if (bytesRead === 0) return;
      held = data.length - next;
      if (held > MAX_LINE_BYTES) tooLong(line);
      data.copy(buffer, 0, next);
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    this.sections.clear();
    await handle?.close();
  }
}
