import { open } from 'node:fs/promises';
import Assembler from 'stream-json/core/assembler.js';
import { jsonParser, type Token, type TokenSource } from 'stream-json/core/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { isSection, type Section } from './format.js';
import { formatPath, type PathSegment } from './problems.js';

/**
 * Reads a JSON file whose top level is an object of arrays without holding it whole, with
 * stream-json's tokenizer: each array element is built on its own by stream-json's Assembler.
 * Strings, keys and numbers come as chunks (nothing is packed by the tokenizer), so every one
 * of them, the nesting and the size of an element are bounded before more than the bound is
 * held; a file over a bound, with bytes that are not UTF-8 or with an escaped lone surrogate is
 * refused at the path where it happens.
 */

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

/** The file is not valid JSON; the message says where. */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/**
 * The file is JSON but is refused at `path`: a bound is exceeded or its text is not valid Unicode.
 * A line-delimited file (line-file.ts) names the line too; a refusal of the line as a whole has no path.
 */
export class JsonRefusedError extends Error {
  override name = 'JsonRefusedError';

  constructor(
    readonly path: PathSegment[],
    readonly reason: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${formatPath(path)}: ${reason}` : `line ${line}: ${path.length > 0 ? `${formatPath(path)}: ` : ''}${reason}`);
  }
}

/** The longest string, key or number: the largest value any field takes (a generic object as JSON). */
export const MAX_STRING_CHARS = 65_536;
/** The deepest nesting, the file's top-level object counting as 1 and an array element as 3. */
export const MAX_DEPTH = 64;
/** The most characters (strings, keys and numbers, plus one per token) one element may hold. */
export const MAX_ELEMENT_CHARS = 1_048_576;

/** The reasons a value is refused, shared with the line-delimited reader (line-file.ts). */
export const REFUSED = {
  deep: `nested deeper than ${MAX_DEPTH} levels`,
  long: (what: 'key' | 'text' | 'number') => `${what} longer than ${MAX_STRING_CHARS.toLocaleString('en')} characters`,
  surrogate: 'text with a lone surrogate (not valid Unicode)',
  number: 'number out of range',
} as const;

const READ_SIZE = 256 * 1024;
const PIECE_CHARS = 16 * 1024;

// No lone surrogate: a high one not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Where the first invalid UTF-8 sequence of `data` (which holds one) starts: after the last whole character before it. */
export function firstInvalidByte(data: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let start = 0;
  try {
    // A byte that ends a character gives text; one that starts or continues it gives none yet.
    for (let i = 0; i < data.length; i++) if (decoder.decode(data.subarray(i, i + 1), { stream: true }) !== '') start = i + 1;
    decoder.decode();
  } catch {
    // The sequence that starts at `start` is the invalid one.
  }
  return start;
}

/** The refusal of bytes that are not UTF-8, `data` starting at byte `offset` of the file. */
export function notUtf8(data: Buffer, invalid: number, offset: number): string {
  return `not valid UTF-8 (byte 0x${data[invalid]!.toString(16).padStart(2, '0')} at byte ${offset + invalid})`;
}

/**
 * Scans `path`, telling the visitor of its top level and each element in file order, and `keep`
 * of each element (its promise is waited for). Throws JsonSyntaxError at the first place the file
 * stops being JSON (a truncated file included), JsonRefusedError at the first bound exceeded or
 * invalid text.
 */
export async function scanJsonFile(path: string, visitor: SourceVisitor, keep: (section: Section, value: unknown) => void | Promise<void>): Promise<void> {
  const reader = new TokenReader(visitor, keep);
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let offset = 0;
  let decoded = 0;
  /** The last bytes read before `chunk`: a character cut by a read starts there. */
  let previous: Buffer = Buffer.alloc(0);
  const refuse = async (chunk: Buffer): Promise<never> => {
    const pending = offset - decoded;
    const data = Buffer.concat([previous.subarray(previous.length - pending), chunk]);
    const invalid = firstInvalidByte(data);
    await reader.push(data.toString('utf8', 0, invalid));
    return reader.refuse(notUtf8(data, invalid, offset - pending));
  };
  const handle = await open(path, 'r');
  // One buffer for every read: a new one per read left the process holding far more memory.
  const buffer = Buffer.allocUnsafeSlow(READ_SIZE);
  try {
    for (let bytesRead; (bytesRead = (await handle.read(buffer, 0, READ_SIZE, null)).bytesRead) > 0; ) {
      let chunk = buffer.subarray(0, bytesRead);
      // Editors on Windows like to prepend a byte-order mark, which JSON does not allow.
      if (offset === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3);
        offset = decoded = 3;
      }
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return await refuse(chunk);
      }
      await reader.push(text);
      decoded += Buffer.byteLength(text);
      offset += chunk.length;
      previous = Buffer.from(chunk.subarray(Math.max(0, chunk.length - 3)));
    }
  } finally {
    await handle.close();
  }
  if (decoded < offset) return refuse(Buffer.alloc(0));
  reader.end();
}

const VALUE_ENDS = new Set<Token['name']>(['endString', 'endNumber', 'nullValue', 'trueValue', 'falseValue']);

type At = 'start' | 'members' | 'value' | 'elements' | 'building' | 'skipping' | 'done';

/** Turns tokens into the visitor's calls, building the values it takes within the bounds. */
class TokenReader {
  // A stage of a stream-chain pipeline is flushed by a call with `none`, which its type leaves out.
  private readonly parse = jsonParser({ packValues: false, streamValues: true }) as (input: string | typeof none) => ReturnType<TokenSource>;
  private readonly assembler = new Assembler();
  private at: At = 'start';
  private key = '';
  private index = 0;
  /** Where the value being built is: [] for the top level, [key] for a member's value, [key, index] for an element. */
  private prefix: PathSegment[] = [];
  private depth = 0;
  private size = 0;
  /** The string, key or number being read, and whether it is a key. */
  private text = '';
  private readingKey = false;

  constructor(
    private readonly visitor: SourceVisitor,
    private readonly keep: (section: Section, value: unknown) => void | Promise<void>,
  ) {}

  async push(text: string): Promise<void> {
    // The tokenizer gives no tokens from a piece it finds an error in: small pieces keep the
    // path a syntax error is reported near close to the error.
    for (let start = 0; start < text.length; start += PIECE_CHARS) {
      let out;
      try {
        out = this.parse(text.slice(start, start + PIECE_CHARS));
      } catch (error) {
        this.syntax(error);
      }
      if (!isMany(out)) continue;
      for (const token of getManyValues(out)) {
        const taken = this.take(token);
        if (taken) await taken;
      }
    }
  }

  end(): void {
    if (this.at === 'start') throw new JsonSyntaxError('the file is empty');
    try {
      const out = this.parse(none);
      if (isMany(out)) for (const token of getManyValues(out)) void this.take(token);
    } catch (error) {
      this.syntax(error);
    }
  }

  private path(): PathSegment[] {
    if (this.at === 'start' || this.at === 'members') return [];
    if (this.at !== 'building') return [this.key];
    const { current, key, done } = this.assembler;
    // The containers being built, then where the next value goes in the innermost one.
    const inner = done ? [] : Array.isArray(current) ? [current.length] : key !== null ? [key] : [];
    return [...this.prefix, ...this.assembler.path, ...inner];
  }

  refuse(reason: string): never {
    throw new JsonRefusedError(this.path(), reason);
  }

  private syntax(error: unknown): never {
    const message = error instanceof Error ? error.message : String(error);
    const path = this.path();
    throw new JsonSyntaxError(path.length === 0 ? message : `${message} (near ${formatPath(path)})`);
  }

  private open(): void {
    if (++this.depth > MAX_DEPTH) this.refuse(REFUSED.deep);
  }

  /** A piece of the string, key or number being read (`what` it is, for the refusal). */
  private chunk(value: string, what: 'key' | 'text' | 'number'): void {
    this.text += value;
    if (this.text.length > MAX_STRING_CHARS) this.refuse(REFUSED.long(what));
    this.grow(value.length);
  }

  private grow(chars: number): void {
    if (this.at !== 'building') return;
    this.size += chars;
    if (this.size > MAX_ELEMENT_CHARS) this.refuse(`larger than ${MAX_ELEMENT_CHARS.toLocaleString('en')} characters`);
  }

  private checked(): string {
    if (LONE_SURROGATE.test(this.text)) this.refuse(REFUSED.surrogate);
    return this.text;
  }

  private startBuilding(prefix: PathSegment[], token: Token): void | Promise<void> {
    this.at = 'building';
    this.prefix = prefix;
    this.size = 0;
    return this.build(token);
  }

  private take(token: Token): void | Promise<void> {
    switch (this.at) {
      // Most tokens are inside an element.
      case 'building':
        return this.build(token);
      case 'start':
        if (token.name !== 'startObject') return this.startBuilding([], token);
        this.open();
        this.at = 'members';
        return;
      case 'members':
        if (token.name === 'startKey') this.text = '';
        else if (token.name === 'stringChunk') this.chunk(token.value, 'key');
        else if (token.name === 'endKey') {
          this.key = this.checked();
          this.visitor.key(this.key);
          this.at = 'value';
        } else if (token.name === 'endObject') {
          this.depth--;
          this.at = 'done';
        }
        return;
      case 'value':
        // An unknown key is reported as such; its value is stepped over, not parsed.
        if (!isSection(this.key)) {
          this.at = 'skipping';
          return this.skip(token);
        }
        if (token.name !== 'startArray') return this.startBuilding([this.key], token);
        this.open();
        this.index = 0;
        this.at = 'elements';
        return;
      case 'elements':
        if (token.name !== 'endArray') return this.startBuilding([this.key, this.index], token);
        this.depth--;
        this.at = 'members';
        return;
      case 'skipping':
        return this.skip(token);
      case 'done':
        return;
    }
  }

  /** Steps over a member's value: nothing is kept, only the nesting is counted. */
  private skip(token: Token): void {
    if (token.name === 'startObject' || token.name === 'startArray') return this.open();
    if (token.name === 'endObject' || token.name === 'endArray') this.depth--;
    else if (!VALUE_ENDS.has(token.name)) return;
    // Back at the top-level object's own depth: the member's value is over.
    if (this.depth === 1) this.at = 'members';
  }

  private build(token: Token): void | Promise<void> {
    this.grow(1);
    const { assembler } = this;
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        this.open();
        assembler[token.name]();
        return;
      case 'endObject':
      case 'endArray':
        this.depth--;
        assembler[token.name]();
        return this.built();
      case 'startKey':
        this.readingKey = true;
        this.text = '';
        return;
      case 'endKey':
        this.readingKey = false;
        assembler.keyValue(this.checked());
        return;
      case 'startString':
      case 'startNumber':
        this.text = '';
        return;
      case 'stringChunk':
        return this.chunk(token.value, this.readingKey ? 'key' : 'text');
      case 'numberChunk':
        return this.chunk(token.value, 'number');
      case 'endString':
        assembler.stringValue(this.checked());
        return this.built();
      case 'endNumber':
        // No field takes a number this large, and JSON.stringify (the import's spool) would write it as null.
        if (!Number.isFinite(Number(this.text))) this.refuse(REFUSED.number);
        assembler.numberValue(this.text);
        return this.built();
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        assembler[token.name]();
        return this.built();
      default:
        return;
    }
  }

  /** When the value being built is complete: to the visitor. */
  private built(): void | Promise<void> {
    if (!this.assembler.done) return;
    const value = this.assembler.current;
    switch (this.prefix.length) {
      case 0:
        this.at = 'done';
        return this.visitor.notObject(value);
      case 1:
        this.at = 'members';
        if (value !== null) this.visitor.notArray(this.key as Section, value);
        return;
      default: {
        this.at = 'elements';
        this.visitor.element(this.key as Section, this.index++, value);
        return this.keep(this.key as Section, value);
      }
    }
  }
}
