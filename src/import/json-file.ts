import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { jsonParser, type Token, type TokenSource } from 'stream-json/core/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { formatPath, type PathSegment } from './problems.js';

/**
 * Reads a JSON file whose top level is an object of arrays without holding it whole, with
 * stream-json's tokenizer: each array element is built from its tokens on its own. Strings,
 * keys and numbers come as chunks (nothing is packed by the tokenizer), so every one of them,
 * the nesting and the size of an element are bounded before more than the bound is held; a
 * file over a bound, with bytes that are not UTF-8 or with an escaped lone surrogate is
 * refused at the path where it happens.
 */

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

/** What to do with a top-level member's value. */
export type MemberMode = 'elements' | 'skip';

export interface JsonFileVisitor {
  /** The top-level value is not an object: it is handed over parsed, and the scan ends. */
  root?(value: unknown): void;
  /** A top-level key; the answer decides how its value is read. */
  member(key: string): MemberMode;
  /** One element of an array value read as 'elements'. */
  element(key: string, value: unknown): void | Promise<void>;
  /** A value read as 'elements' that is not an array. */
  value(key: string, value: unknown): void;
}

const READ_SIZE = 256 * 1024;
const PIECE_CHARS = 16 * 1024;

// No lone surrogate: a high one not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** How many bytes of `data` end on a character boundary; the rest belongs to the next read. */
function wholeCharacters(data: Buffer): number {
  let i = data.length - 1;
  while (i >= 0 && data.length - i <= 3 && (data[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return data.length;
  const lead = data[i]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + size <= data.length ? data.length : i;
}

/** The longest prefix of `data` in which no invalid UTF-8 sequence is complete. */
function validPrefix(data: Buffer): number {
  const fails = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(0, end), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let low = 0;
  let high = data.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (fails(middle + 1)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Where the first invalid UTF-8 sequence of `data` starts: after the last whole character before the failure. */
export function firstInvalidByte(data: Buffer): number {
  return wholeCharacters(data.subarray(0, validPrefix(data)));
}

/** The refusal of bytes that are not UTF-8, `data` starting at byte `offset` of the file. */
export function notUtf8(data: Buffer, invalid: number, offset: number): string {
  return `not valid UTF-8 (byte 0x${data[invalid]!.toString(16).padStart(2, '0')} at byte ${offset + invalid})`;
}

/**
 * Scans `path`, calling the visitor in file order. Throws JsonSyntaxError at the first place the
 * file stops being JSON (a truncated file included), JsonRefusedError at the first bound exceeded
 * or invalid text.
 */
export async function scanJsonFile(path: string, visitor: JsonFileVisitor): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const reader = new TokenReader(visitor);
    const buffer = Buffer.allocUnsafeSlow(READ_SIZE);
    let carry: Buffer | null = null;
    let offset = 0;
    let first = true;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_SIZE, null);
      let data = buffer.subarray(0, bytesRead);
      // Editors on Windows like to prepend a byte-order mark, which JSON does not allow.
      if (first && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
        data = data.subarray(3);
        offset = 3;
      }
      first = false;
      if (carry) data = Buffer.concat([carry, data]);
      const whole = bytesRead === 0 ? data.length : wholeCharacters(data);
      const text = data.subarray(0, whole);
      if (!isUtf8(text)) {
        const valid = firstInvalidByte(text);
        await reader.push(text.toString('utf8', 0, valid));
        reader.refuse(notUtf8(text, valid, offset));
      }
      await reader.push(text.toString('utf8'));
      offset += whole;
      carry = whole < data.length ? Buffer.from(data.subarray(whole)) : null;
      if (bytesRead === 0) break;
    }
    reader.end();
  } finally {
    await handle.close();
  }
}

const enum At {
  /** Before the top-level value. */
  Start,
  /** In the top-level object, between members. */
  Members,
  /** After a top-level key, before its value. */
  MemberValue,
  /** In an array read as 'elements', between elements. */
  Elements,
  /** Building a value (an element, a member's value or the root). */
  Building,
  /** Stepping over a member's value. */
  Skipping,
  Done,
}

type Container = unknown[] | Record<string, unknown>;

/** Turns tokens into the visitor's calls, building the values it takes within the bounds. */
class TokenReader {
  // A stage of a stream-chain pipeline is flushed by a call with `none`, which its type leaves out.
  private readonly parse = jsonParser({ packValues: false, streamValues: true }) as (input: string | typeof none) => ReturnType<TokenSource>;
  private at = At.Start;
  private key = '';
  private mode: MemberMode = 'skip';
  private index = 0;
  /** The containers of the value being built, outermost first, and the key each is at. */
  private readonly stack: Container[] = [];
  private readonly keys: (string | null)[] = [];
  /** Where the built value goes once complete. */
  private role: 'element' | 'value' | 'root' = 'element';
  private depth = 0;
  private size = 0;
  /** The string, key or number being read, when it is kept. */
  private text = '';

  constructor(private readonly visitor: JsonFileVisitor) {}

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
    if (this.at === At.Start) throw new JsonSyntaxError('the file is empty');
    try {
      const out = this.parse(none);
      if (isMany(out)) for (const token of getManyValues(out)) void this.take(token);
    } catch (error) {
      this.syntax(error);
    }
  }

  private path(): PathSegment[] {
    const path: PathSegment[] = [];
    if (this.at === At.Start || (this.at === At.Building && this.role === 'root')) {
      // The root is being built: the containers alone say where.
    } else if (this.at !== At.Members) {
      path.push(this.key);
      if (this.at === At.Building && this.role === 'element') path.push(this.index);
    }
    for (let i = 0; i < this.stack.length; i++) {
      const container = this.stack[i]!;
      if (Array.isArray(container)) path.push(container.length);
      else if (this.keys[i] !== null) path.push(this.keys[i]!);
    }
    return path;
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

  /** Whether the string being read is a key of the value being built. */
  private readingKey = false;

  private grow(chars: number): void {
    if (this.at !== At.Building) return;
    this.size += chars;
    if (this.size > MAX_ELEMENT_CHARS) this.refuse(`larger than ${MAX_ELEMENT_CHARS.toLocaleString('en')} characters`);
  }

  private checkText(text: string): string {
    if (LONE_SURROGATE.test(text)) this.refuse(REFUSED.surrogate);
    return text;
  }

  private startBuilding(role: 'element' | 'value' | 'root'): void {
    this.at = At.Building;
    this.role = role;
    this.size = 0;
  }

  private take(token: Token): void | Promise<void> {
    // Most tokens are inside an element.
    if (this.at === At.Building) return this.build(token);
    switch (this.at) {
      case At.Start:
        if (token.name === 'startObject') {
          this.open();
          this.at = At.Members;
          return;
        }
        this.startBuilding('root');
        return this.build(token);
      case At.Members:
        switch (token.name) {
          case 'startKey':
            this.text = '';
            return;
          case 'stringChunk':
            return this.chunk(token.value, 'key');
          case 'endKey':
            this.key = this.checkText(this.text);
            this.text = '';
            this.mode = this.visitor.member(this.key);
            this.at = At.MemberValue;
            return;
          case 'endObject':
            this.depth--;
            this.at = At.Done;
            return;
          default:
            return;
        }
      case At.MemberValue:
        if (this.mode === 'skip') {
          this.at = At.Skipping;
          return this.skip(token);
        }
        if (token.name === 'startArray') {
          this.open();
          this.index = 0;
          this.at = At.Elements;
          return;
        }
        this.startBuilding('value');
        return this.build(token);
      case At.Elements:
        if (token.name === 'endArray') {
          this.depth--;
          this.at = At.Members;
          return;
        }
        this.startBuilding('element');
        return this.build(token);
      case At.Skipping:
        return this.skip(token);
      case At.Done:
        return;
    }
  }

  /** Steps over a member's value: nothing is kept, only the nesting is counted. */
  private skip(token: Token): void {
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        this.open();
        return;
      case 'endObject':
      case 'endArray':
        this.depth--;
        break;
      case 'endString':
      case 'endNumber':
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        break;
      default:
        return;
    }
    // Back at the top-level object's own depth: the member's value is over.
    if (this.depth === 1) this.at = At.Members;
  }

  private build(token: Token): void | Promise<void> {
    this.grow(1);
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        this.open();
        this.stack.push(token.name === 'startObject' ? {} : []);
        this.keys.push(null);
        return;
      case 'endObject':
      case 'endArray':
        this.depth--;
        this.keys.pop();
        return this.add(this.stack.pop());
      case 'startKey':
        this.readingKey = true;
        this.text = '';
        return;
      case 'endKey':
        this.readingKey = false;
        this.keys[this.keys.length - 1] = this.checkText(this.text);
        this.text = '';
        return;
      case 'startString':
      case 'startNumber':
        this.text = '';
        return;
      case 'stringChunk':
        return this.chunk(token.value, this.readingKey ? 'key' : 'text');
      case 'numberChunk':
        return this.chunk(token.value, 'number');
      case 'endString': {
        const text = this.checkText(this.text);
        this.text = '';
        return this.add(text);
      }
      case 'endNumber': {
        const number = Number(this.text);
        // No field takes a number this large, and JSON.stringify (the import's spool) would write it as null.
        if (!Number.isFinite(number)) this.refuse(REFUSED.number);
        this.text = '';
        return this.add(number);
      }
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return this.add(token.value);
      default:
        return;
    }
  }

  /** A complete value: into its container, or to the visitor when it is the whole value. */
  private add(value: unknown): void | Promise<void> {
    const top = this.stack.length;
    if (top > 0) {
      const container = this.stack[top - 1]!;
      if (Array.isArray(container)) container.push(value);
      else {
        const key = this.keys[top - 1]!;
        // As JSON.parse does: "__proto__" is an ordinary key, not the prototype.
        if (key === '__proto__') Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
        else container[key] = value;
        this.keys[top - 1] = null;
      }
      return;
    }
    switch (this.role) {
      case 'root':
        this.at = At.Done;
        this.visitor.root?.(value);
        return;
      case 'value':
        this.at = At.Members;
        this.visitor.value(this.key, value);
        return;
      case 'element': {
        this.at = At.Elements;
        const taken = this.visitor.element(this.key, value);
        this.index++;
        return taken;
      }
    }
  }
}
