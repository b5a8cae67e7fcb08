import { open } from 'node:fs/promises';

/**
 * Reads a JSON file whose top level is an object of arrays without holding it whole: the bytes
 * are scanned for the top-level keys and for where each array element starts and ends (strings,
 * escapes and nesting tracked), and each element is parsed on its own. Nothing larger than one
 * element and one read buffer exists at a time.
 */

/** The file is not valid JSON; the message says where. */
export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

/** What to do with a top-level member's value. */
export type MemberMode = 'elements' | 'value' | 'skip';

export interface JsonStreamVisitor {
  /** The top-level value is not an object: it is handed over parsed, and the scan ends. */
  root?(value: unknown): void;
  /** A top-level key; the answer decides how its value is read. */
  member(key: string): MemberMode;
  /** One element of an array value read as 'elements'. */
  element(key: string, value: unknown): void | Promise<void>;
  /** A value read as 'value', or a non-array value of a member read as 'elements'. */
  value(key: string, value: unknown): void;
}

// Two buffers, read into again and again: a fresh buffer per read costs more than the reading
// (new memory for the kernel to fill, and garbage), so nothing may keep a view of one (see push).
const READ_SIZE = 256 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Bytes parsed at once at most: up to a few tens of KiB, one string and one parse cost less than
 * one per element; far larger strings cost more to make than they save.
 */
const AT_ONCE_BYTES = 32 * 1024;

/** elementsAtOnce found no place to cut, or the text up to the place it found is not JSON. */
const NONE = -1;
const FAILED = -2;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

const enum State {
  Start,
  KeyOrEnd,
  Key,
  Colon,
  Value,
  ArrayStart,
  Element,
  AfterElement,
  AfterMember,
  Done,
  /** Inside a value being scanned (see `scan`). */
  Scanning,
}

/** Where the scan of one value stands, kept across read buffers. */
interface ValueScan {
  /** What the value is for: a key, an element, a member value, or the root. */
  role: 'key' | 'element' | 'value' | 'root';
  /** Copy the bytes (otherwise they are only stepped over). */
  capture: boolean;
  kind: 'container' | 'string' | 'scalar';
  depth: number;
  inString: boolean;
  escaped: boolean;
  parts: Buffer[];
  startByte: number;
}

function describeByte(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? `"${String.fromCharCode(byte)}"` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}

/**
 * Scans `path`, calling the visitor in file order. Throws JsonSyntaxError at the first place the
 * file stops being JSON (a truncated file included).
 */
export async function scanJsonFile(path: string, visitor: JsonStreamVisitor): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const scanner = new JsonObjectScanner(visitor);
    let first = true;
    // Two buffers taking turns: the next one is read while the scanner works on the other, so
    // the scan does not wait for the file between buffers.
    let next = Buffer.allocUnsafeSlow(READ_SIZE);
    let spare = Buffer.allocUnsafeSlow(READ_SIZE);
    let reading = handle.read(next, 0, READ_SIZE, null);
    for (;;) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      [next, spare] = [spare, next];
      // Read on from where this read ended (one read at a time, so the file position keeps the order).
      reading = handle.read(next, 0, READ_SIZE, null);
      let data = buffer.subarray(0, bytesRead);
      // Editors on Windows like to prepend a byte-order mark, which JSON does not allow.
      if (first && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
      first = false;
      try {
        await scanner.push(data);
      } catch (error) {
        // Let the read under way end before the file is closed.
        await reading.catch(() => {});
        throw error;
      }
    }
    scanner.end();
  } finally {
    await handle.close();
  }
}

/** The state machine behind scanJsonFile, fed one buffer at a time (exported for tests). */
export class JsonObjectScanner {
  private state = State.Start;
  private resume = State.Start;
  private offset = 0;
  private key = '';
  private mode: MemberMode = 'skip';
  private index = 0;
  private scanState: ValueScan | null = null;
  /** Whether the current member's elements may still be parsed a buffer at a time (elementsAtOnce). */
  private atOnce = true;

  constructor(private readonly visitor: JsonStreamVisitor) {}

  private fail(message: string): never {
    throw new JsonSyntaxError(message);
  }

  private unexpected(byte: number, at: number, expected: string): never {
    this.fail(`unexpected ${describeByte(byte)} at byte ${at}, expected ${expected}`);
  }

  private beginScan(role: ValueScan['role'], capture: boolean, byte: number, at: number, resume: State): void {
    const kind = byte === OPEN_BRACE || byte === OPEN_BRACKET ? 'container' : byte === QUOTE ? 'string' : 'scalar';
    if (kind === 'scalar' && (byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COMMA || byte === COLON)) {
      this.unexpected(byte, at, 'a value');
    }
    this.scanState = { role, capture, kind, depth: 0, inString: false, escaped: false, parts: [], startByte: at };
    this.resume = resume;
    this.state = State.Scanning;
  }

  /**
   * Steps through the value being scanned from `i`; returns the index just past its end, or -1
   * when the buffer ends first. A scalar ends before the byte that ends it.
   */
  private scan(data: Buffer, i: number): number {
    const s = this.scanState!;
    const length = data.length;
    if (s.kind === 'scalar') {
      for (; i < length; i++) {
        const byte = data[i]!;
        if (isSpace(byte) || byte === COMMA || byte === CLOSE_BRACKET || byte === CLOSE_BRACE) return i;
      }
      return -1;
    }
    let { depth, inString, escaped } = s;
    if (s.kind === 'string' && depth === 0 && !inString) {
      // The opening quote: from here on the value is inside its string.
      inString = true;
      i++;
    }
    for (; i < length; i++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        // Most of a file's bytes are inside strings: jump to the next quote natively, then
        // tell from the backslashes before it whether it ends the string.
        const quote = data.indexOf(QUOTE, i);
        const stop = quote === -1 ? length : quote;
        let backslashes = 0;
        while (stop - backslashes - 1 >= i && data[stop - backslashes - 1] === BACKSLASH) backslashes++;
        if (quote === -1) {
          // The buffer ends inside the string; an odd run of backslashes escapes the next byte.
          escaped = backslashes % 2 === 1;
          i = length;
          break;
        }
        i = quote;
        if (backslashes % 2 === 1) continue;
        inString = false;
        if (depth === 0) {
          s.inString = false;
          return i + 1;
        }
        continue;
      }
      const byte = data[i]!;
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          s.depth = 0;
          return i + 1;
        }
      }
    }
    s.depth = depth;
    s.inString = inString;
    s.escaped = escaped;
    return -1;
  }

  private finishScan(): void {
    const s = this.scanState!;
    this.scanState = null;
    this.state = this.resume;
    if (!s.capture) return;
    const text = (s.parts.length === 1 ? s.parts[0]! : Buffer.concat(s.parts)).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const where = s.role === 'element' ? ` in ${this.key}[${this.index}]` : s.role === 'key' ? ' in a key' : s.role === 'value' ? ` in ${this.key}` : '';
      this.fail(`${(error as Error).message}${where} (the value starting at byte ${s.startByte})`);
    }
    this.pending = { role: s.role, value };
  }

  private pending: { role: ValueScan['role']; value: unknown } | null = null;

  private async deliver(): Promise<void> {
    const done = this.pending;
    if (!done) return;
    this.pending = null;
    switch (done.role) {
      case 'key':
        this.key = done.value as string;
        this.mode = this.visitor.member(this.key);
        this.atOnce = true;
        break;
      case 'element':
        await this.visitor.element(this.key, done.value);
        this.index++;
        break;
      case 'value':
        this.visitor.value(this.key, done.value);
        break;
      case 'root':
        this.visitor.root?.(done.value);
        break;
    }
  }

  /**
   * The object elements that the buffer holds whole from `i` (an element's opening brace), parsed
   * with one JSON.parse instead of being scanned byte by byte and parsed one by one. The bytes up
   * to the last comma that follows a closing brace are parsed as the inside of an array. That
   * parse succeeds only if the comma separates two elements of this array: a comma inside a
   * string or a nested value leaves the text unbalanced. The values are those that parsing each
   * element alone gives. Returns the index of that comma; NONE when there is no such comma; FAILED
   * when the text does not parse, and the byte-by-byte scan reads on (and reports any error).
   */
  private async elementsAtOnce(data: Buffer, i: number): Promise<number> {
    // A "]" ends this array or is nested in (or a string of) an element: stop before the first.
    const limit = Math.min(data.length, i + AT_ONCE_BYTES);
    const bracket = data.indexOf(CLOSE_BRACKET, i);
    let cut = data.lastIndexOf(COMMA, (bracket === -1 || bracket > limit ? limit : bracket) - 1);
    while (cut > i) {
      let before = cut - 1;
      while (before > i && isSpace(data[before]!)) before--;
      if (data[before] === CLOSE_BRACE) break;
      cut = data.lastIndexOf(COMMA, cut - 1);
    }
    if (cut <= i) return NONE;
    let values: unknown[];
    try {
      values = JSON.parse(`[${data.toString('utf8', i, cut)}]`) as unknown[];
    } catch {
      return FAILED;
    }
    for (const value of values) {
      // Most elements are taken synchronously: waiting only on a promise spares a turn each.
      const taken = this.visitor.element(this.key, value);
      if (taken) await taken;
      this.index++;
    }
    return cut;
  }

  /** Scans the next bytes of the file; `data` may be overwritten once this returns. */
  async push(data: Buffer): Promise<void> {
    const length = data.length;
    let i = 0;
    // Off once this buffer has no more elements to parse at once.
    let atOnce = true;
    while (i < length) {
      if (this.state === State.Scanning) {
        const s = this.scanState!;
        const start = i;
        const end = this.scan(data, i);
        if (end === -1) {
          // The buffer is read into again: keep a copy of the part of the value it holds.
          if (s.capture) s.parts.push(Buffer.from(data.subarray(start)));
          this.offset += length - i;
          return;
        }
        if (s.capture) s.parts.push(data.subarray(start, end));
        this.offset += end - i;
        i = end;
        this.finishScan();
        await this.deliver();
        continue;
      }
      const byte = data[i]!;
      const at = this.offset;
      if (isSpace(byte)) {
        i++;
        this.offset++;
        continue;
      }
      switch (this.state) {
        case State.Start:
          if (byte !== OPEN_BRACE) {
            // Not an object: read it whole, only to say what it is.
            this.beginScan('root', true, byte, at, State.Done);
            continue;
          }
          this.state = State.KeyOrEnd;
          break;
        case State.KeyOrEnd:
        case State.Key:
          if (byte === CLOSE_BRACE && this.state === State.KeyOrEnd) {
            this.state = State.Done;
            break;
          }
          if (byte !== QUOTE) this.unexpected(byte, at, 'a key in double quotes');
          this.beginScan('key', true, byte, at, State.Colon);
          continue;
        case State.Colon:
          if (byte !== COLON) this.unexpected(byte, at, '":"');
          this.state = State.Value;
          break;
        case State.Value:
          if (this.mode === 'elements' && byte === OPEN_BRACKET) {
            this.index = 0;
            this.state = State.ArrayStart;
            break;
          }
          this.beginScan('value', this.mode !== 'skip', byte, at, State.AfterMember);
          continue;
        case State.ArrayStart:
        case State.Element:
          if (byte === CLOSE_BRACKET && this.state === State.ArrayStart) {
            this.state = State.AfterMember;
            break;
          }
          if (byte === OPEN_BRACE && atOnce && this.atOnce) {
            const end = await this.elementsAtOnce(data, i);
            if (end >= 0) {
              this.offset += end - i;
              i = end;
              this.state = State.AfterElement;
              continue;
            }
            atOnce = false;
            // Elements with nested values may not split where guessed: this member is read byte by byte.
            if (end === FAILED) this.atOnce = false;
          }
          this.beginScan('element', true, byte, at, State.AfterElement);
          continue;
        case State.AfterElement:
          if (byte === COMMA) this.state = State.Element;
          else if (byte === CLOSE_BRACKET) this.state = State.AfterMember;
          else this.unexpected(byte, at, '"," or "]"');
          break;
        case State.AfterMember:
          if (byte === COMMA) this.state = State.Key;
          else if (byte === CLOSE_BRACE) this.state = State.Done;
          else this.unexpected(byte, at, '"," or "}"');
          break;
        case State.Done:
          this.unexpected(byte, at, 'the end of the file');
      }
      i++;
      this.offset++;
    }
  }

  /** The input is over: anything left open is a truncated file. */
  end(): void {
    if (this.state === State.Scanning && this.scanState?.kind === 'scalar') {
      // A bare scalar at the root ends with the file.
      this.finishScan();
      const done = this.pending;
      this.pending = null;
      if (done?.role === 'root') {
        this.visitor.root?.(done.value);
        return;
      }
    }
    if (this.state === State.Start) this.fail('the file is empty');
    if (this.state !== State.Done) this.fail(`unexpected end of the file at byte ${this.offset}`);
  }
}
