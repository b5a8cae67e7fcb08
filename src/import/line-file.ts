import { open } from 'node:fs/promises';
import { firstInvalidByte, JsonRefusedError, JsonSyntaxError, MAX_DEPTH, MAX_ELEMENT_CHARS, MAX_STRING_CHARS, notUtf8, REFUSED, type SourceVisitor } from './json-file.js';
import { isSection, kindOf, SECTION_NAMES, type Section } from './format.js';
import type { PathSegment } from './problems.js';
import { IntList } from './id-index.js';
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
/** Less than MAX_LINE_BYTES: only a line that continues from an earlier read can be too long. */
const READ_SIZE = 256 * 1024;
/** Blanks (a carriage return included): the line holds no record. */
const BLANK = /^[ \t\r]*$/;

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

/** The section a line's object names; anything else refuses the line. */
function sectionOf(value: unknown, line: number): Section {
  if (!isPlainObject(value)) throw new JsonRefusedError([], `expected an object with one member named after a section, got ${kindOf(value)}`, line);
  const keys = Object.keys(value);
  if (keys.length !== 1) throw new JsonRefusedError([], `expected an object with one member named after a section, got ${keys.length} members`, line);
  const key = keys[0]!;
  if (!isSection(key)) throw new JsonRefusedError([key], `unknown section (expected ${SECTION_NAMES.join(', ')})`, line);
  return key;
}

/**
 * Scans a line-delimited file in file order: the visitor is told of a section at its first line
 * and of every record; `lines` gets each record's line number per section (its index there is
 * its place among them) and `keep` the line's text (its promise is waited for). The first line
 * the file cannot take refuses it: JsonSyntaxError for a line that is not JSON, JsonRefusedError
 * for the rest.
 */
export async function scanLineFile(
  path: string,
  visitor: SourceVisitor,
  lines: Map<Section, IntList>,
  keep: (section: Section, text: string) => void | Promise<void>,
): Promise<void> {
  // In stream mode a byte-order mark is dropped at the start of the file only.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  /** Of the first byte not taken yet. */
  let offset = 0;
  let carry: Buffer[] = [];
  let carried = 0;

  /** Whole lines, each with its newline but the file's last; lines before a byte that is not UTF-8 are taken first. */
  const take = async (bytes: Buffer, last: boolean) => {
    let text: string;
    let invalid = -1;
    try {
      text = decoder.decode(bytes, { stream: !last });
    } catch {
      invalid = firstInvalidByte(bytes);
      text = bytes.toString('utf8', 0, bytes.lastIndexOf(0x0a, invalid) + 1);
      if (offset === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    for (let at = 0; at < text.length; line++) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      const lineText = text.slice(at, end);
      at = end + 1;
      if (BLANK.test(lineText)) continue;
      let value: unknown;
      try {
        value = JSON.parse(lineText);
      } catch (error) {
        throw new JsonSyntaxError(`line ${line}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const section = sectionOf(value, line);
      const record = (value as Record<Section, unknown>)[section];
      let numbers = lines.get(section);
      if (!numbers) {
        lines.set(section, (numbers = new IntList()));
        visitor.key(section);
      }
      const index = numbers.push(line);
      walk(record, [section, index], RECORD_DEPTH, line);
      visitor.element(section, index, record);
      const kept = keep(section, lineText);
      if (kept) await kept;
    }
    if (invalid >= 0) throw new JsonRefusedError([], notUtf8(bytes, invalid, offset), line);
    offset += bytes.length;
  };

  const handle = await open(path, 'r');
  // One buffer for every read: a new one per read left the process holding far more memory.
  const buffer = Buffer.allocUnsafeSlow(READ_SIZE);
  try {
    for (let bytesRead; (bytesRead = (await handle.read(buffer, 0, READ_SIZE, null)).bytesRead) > 0; ) {
      await split(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  await take(Buffer.concat(carry), true);

  async function split(chunk: Buffer): Promise<void> {
    const end = chunk.lastIndexOf(0x0a);
    // The line begun in earlier reads, its newline left out.
    const length = carried + (end < 0 ? chunk.length : chunk.indexOf(0x0a));
    if (length > MAX_LINE_BYTES) throw new JsonRefusedError([], `longer than ${MAX_LINE_BYTES.toLocaleString('en')} bytes`, line);
    if (end < 0) {
      carry.push(Buffer.from(chunk));
      carried += chunk.length;
      return;
    }
    await take(carried > 0 ? Buffer.concat([...carry, chunk.subarray(0, end + 1)]) : chunk.subarray(0, end + 1), false);
    carry = [Buffer.from(chunk.subarray(end + 1))];
    carried = chunk.length - end - 1;
  }
}
