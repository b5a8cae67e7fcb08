import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { jsonParser, type Token, type TokenSource } from 'stream-json/core/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import { isSection, type Section } from './format.js';
import { formatPath, type PathSegment } from './problems.js';

/**
 * Reads a JSON file whose top level is an object of arrays without holding it whole: stream-json's
 * tokenizer gives strings, keys and numbers in chunks, and each array element is built from its
 * tokens, so every value, the nesting and an element's size are bounded before more is held. A
 * bound exceeded, bytes that are not UTF-8 or an escaped lone surrogate refuse the file at its path.
 */

/** The file is not valid JSON; the message says where. */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** The file is refused at `path`: a bound is exceeded or its text is not valid Unicode (a line-delimited file names the line too). */
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

/** Told about an import's top level and every element, in the order the file holds them. */
export interface SourceVisitor {
  /** The top level is not an object. */
  notObject(value: unknown): void;
  /** A top-level key, known or not. */
  key(key: string): void;
  /** A section whose value is present but not an array (null counts as absent). */
  notArray(section: Section, value: unknown): void;
  element(section: Section, index: number, value: unknown): void;
}

/** Keeps an element for the second reading; the reading waits for a promise it returns. */
export type KeepElement = (section: Section, value: unknown) => void | Promise<void>;

const READ_SIZE = 256 * 1024;
const PIECE_CHARS = 16 * 1024;

declare global {
  interface String {
    /** False for text with a lone surrogate. ES2024 (Node 20 has it; the project's TypeScript library stops at ES2023). */
    isWellFormed(): boolean;
  }
}

/** How many bytes of `data` end on a character boundary; the rest belongs to the next read. */
function wholeCharacters(data: Buffer): number {
  let i = data.length - 1;
  while (i >= 0 && data.length - i <= 3 && (data[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return data.length;
  const lead = data[i]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + size <= data.length ? data.length : i;
}

/** Where the first invalid UTF-8 sequence of `data` starts: the first U+FFFD decoding puts where the bytes are not one. */
export function firstInvalidByte(data: Buffer): number {
  let byte = 0;
  for (const char of data.toString('utf8')) {
    if (char === '\ufffd' && !(data[byte] === 0xef && data[byte + 1] === 0xbf && data[byte + 2] === 0xbd)) break;
    byte += Buffer.byteLength(char);
  }
  return byte;
}

/** The refusal of bytes that are not UTF-8, `data` starting at byte `offset` of the file. */
export function notUtf8(data: Buffer, invalid: number, offset: number): string {
  return `not valid UTF-8 (byte 0x${data[invalid]!.toString(16).padStart(2, '0')} at byte ${offset + invalid})`;
}

/** Scans `path`, telling the visitor in file order; throws where the file stops being JSON or is first refused. */
export async function scanJsonFile(path: string, visitor: SourceVisitor, keep?: KeepElement): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const reader = new TokenReader(visitor, keep);
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
  Start, // before the top-level value
  Members, // in the top-level object, between members
  MemberValue, // after a top-level key, before its value
  Elements, // in a section's array, between elements
  Building, // building a value: an element, a member's value or the root
  Skipping, // stepping over the value of a key that is not a section
  Done,
}

type Container = unknown[] | Record<string, unknown>;

/** Turns tokens into the visitor's calls, building the values it takes within the bounds. */
class TokenReader {
  // A stage of a stream-chain pipeline is flushed by a call with `none`, which its type leaves out.
  private readonly parse = jsonParser({ packValues: false, streamValues: true }) as (input: string | typeof none) => ReturnType<TokenSource>;
  private at = At.Start;
  /** The top-level key being read, and the index of the element being built in its array. */
  private key = '';
  private index = 0;
  /** The containers of the value being built, outermost first, and the key each is at. */
  private readonly stack: Container[] = [];
  private readonly keys: (string | null)[] = [];
  /** Where the built value goes once complete. */
  private role: 'element' | 'value' | 'root' = 'element';
  private depth = 0;
  private size = 0;
  /** The string, key or number being read (emptied as each is taken), and whether it is a key of the value being built. */
  private text = '';
  private readingKey = false;

  constructor(
    private readonly visitor: SourceVisitor,
    private readonly keep?: KeepElement,
  ) {}

  async push(text: string): Promise<void> {
    // The tokenizer gives no tokens from a piece it finds an error in: small pieces keep the path near the error.
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
    // While the root is built the containers alone say where; between members there is no key.
    const inRoot = this.at === At.Start || (this.at === At.Building && this.role === 'root');
    if (!inRoot && this.at !== At.Members) {
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

  private grow(chars: number): void {
    if (this.at !== At.Building) return;
    this.size += chars;
    if (this.size > MAX_ELEMENT_CHARS) this.refuse(`larger than ${MAX_ELEMENT_CHARS.toLocaleString('en')} characters`);
  }

  /** The text read so far, refused when it is not valid Unicode. */
  private takeText(): string {
    const text = this.text;
    this.text = '';
    if (!text.isWellFormed()) this.refuse(REFUSED.surrogate);
    return text;
  }

  private startBuilding(role: 'element' | 'value' | 'root', token: Token): void | Promise<void> {
    this.at = At.Building;
    this.role = role;
    this.size = 0;
    return this.build(token);
  }

  private take(token: Token): void | Promise<void> {
    // Most tokens are inside an element.
    if (this.at === At.Building) return this.build(token);
    switch (this.at) {
      case At.Start:
        if (token.name !== 'startObject') return this.startBuilding('root', token);
        this.open();
        this.at = At.Members;
        return;
      case At.Members:
        if (token.name === 'stringChunk') this.chunk(token.value, 'key');
        else if (token.name === 'endKey') {
          this.key = this.takeText();
          this.visitor.key(this.key);
          this.at = At.MemberValue;
        } else if (token.name === 'endObject') {
          this.depth--;
          this.at = At.Done;
        }
        return;
      case At.MemberValue:
        // The value of a key that is not a section is stepped over, not parsed.
        if (!isSection(this.key)) {
          this.at = At.Skipping;
          return this.skip(token);
        }
        if (token.name !== 'startArray') return this.startBuilding('value', token);
        this.open();
        this.index = 0;
        this.at = At.Elements;
        return;
      case At.Elements:
        if (token.name !== 'endArray') return this.startBuilding('element', token);
        this.depth--;
        this.at = At.Members;
        return;
      case At.Skipping:
        return this.skip(token);
    }
  }

  /** Steps over a member's value: nothing is kept, only the nesting is counted. */
  private skip(token: Token): void {
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        return this.open();
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
        return;
      case 'endKey':
        this.readingKey = false;
        this.keys[this.keys.length - 1] = this.takeText();
        return;
      case 'stringChunk':
        return this.chunk(token.value, this.readingKey ? 'key' : 'text');
      case 'numberChunk':
        return this.chunk(token.value, 'number');
      case 'endString':
        return this.add(this.takeText());
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
    const section = this.key as Section;
    switch (this.role) {
      case 'root':
        this.at = At.Done;
        return this.visitor.notObject(value);
      case 'value':
        this.at = At.Members;
        if (value !== null) this.visitor.notArray(section, value);
        return;
      case 'element':
        this.at = At.Elements;
        this.visitor.element(section, this.index++, value);
        return this.keep?.(section, value);
    }
  }
}
