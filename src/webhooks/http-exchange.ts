/**
 * The two halves of one HTTP/1.1 exchange for a webhook send, without sockets: the request's
 * bytes (`requestBytes`), and a reader of the answer that is fed whatever the socket delivers
 * (`ResponseReader`). Everything a receiver sends is bounded here: the header section, the body
 * that is kept, and the framing of a chunked body.
 */

/** The most of any response body ever read; shiftgate needs only the status and a short excerpt. */
export const READ_LIMIT_BYTES = 4096;
/** The most the header sections of one answer may take, interim (1xx) ones included. */
export const HEAD_LIMIT_BYTES = 16 * 1024;
/** The most a chunked body's framing (size lines, extensions, trailers) may take; beyond it the read stops as at READ_LIMIT_BYTES. */
export const FRAMING_LIMIT_BYTES = 16 * 1024;

// What node accepts in a header: a name is a token, a value holds no control character but tab.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
// Header names the request sets itself; a caller's header of one of these names is left out.
const OWN_HEADERS = new Set(['host', 'content-type', 'content-length', 'user-agent', 'connection', 'transfer-encoding']);

/** The request line and Host header, and the headers every send carries after the caller's. */
export interface RequestParts {
  /** Path and query, as the URL parser spelled them. */
  path: string;
  /** Host and port as written in the URI (the port only when it is not the scheme's default). */
  host: string;
  /** `user:password` from the URI (decoded), sent as Basic authorization; undefined without one. */
  auth: string | undefined;
  /** `Connection: close` for a socket that is not kept after this exchange. */
  close: boolean;
}

/**
 * The whole request as one buffer: head (latin1, as node writes headers) and body (UTF-8).
 * Throws, writing nothing, when a header name is not a token or a value holds a character node
 * would refuse (CR, LF, NUL and other controls), so no header can split the request.
 */
export function requestBytes(parts: RequestParts, headers: Record<string, string>, payload: string): Buffer {
  let head = `POST ${parts.path} HTTP/1.1\r\nHost: ${parts.host}\r\n`;
  let authorized = false;
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name)) throw new Error(`Header name must be a valid HTTP token ["${name}"]`);
    if (INVALID_VALUE.test(value)) throw new Error(`Invalid character in header content ["${name}"]`);
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) continue;
    if (lower === 'authorization') authorized = true;
    head += `${name}: ${value}\r\n`;
  }
  if (parts.auth !== undefined && !authorized) head += `Authorization: Basic ${Buffer.from(parts.auth).toString('base64')}\r\n`;
  const length = Buffer.byteLength(payload);
  head += `content-type: application/json\r\ncontent-length: ${length}\r\nuser-agent: shiftgate-webhooks/1\r\n`;
  head += parts.close ? 'connection: close\r\n\r\n' : '\r\n';
  const bytes = Buffer.allocUnsafe(head.length + length);
  bytes.write(head, 0, 'latin1');
  bytes.write(payload, head.length, 'utf8');
  return bytes;
}

/** What one chunk fed to the reader came to. */
export const MORE = 0;
/** The answer ended within the chunk. */
export const DONE = 1;
/** The read stopped at a limit (body or chunk framing); the answer was not read to its end. */
export const LIMIT = 2;
/** The answer is not HTTP as it may be sent; `problem` says what was wrong. */
export const MALFORMED = 3;
export type ReadResult = typeof MORE | typeof DONE | typeof LIMIT | typeof MALFORMED;

const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const FINISHED = 7;

const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [\t\x20-\x7e\x80-\xff]*)?$/;
const CHUNK_SIZE_LINE = /^([0-9A-Fa-f]{1,16})[\t ]*(?:;[\t\x20-\x7e\x80-\xff]*)?$/;
const DECIMAL = /^\d{1,15}$/;
const FOLDED = /^[\t ]/;
// Optional white space around a field value: only spaces and tabs, never other characters String.trim would take.
const OWS = /^[\t ]+|[\t ]+$/g;

/** The elements of a comma-separated field value, white space around each taken off. */
function listItems(value: string): string[] {
  return value.split(',').map((item) => item.replace(OWS, ''));
}

/**
 * Reads one HTTP/1.x answer as it arrives, chunk by chunk: skips interim (1xx) answers, then
 * reads the final one's status and headers and its body, framed by Content-Length, by chunked
 * transfer coding, or by the connection's end. Keeps at most READ_LIMIT_BYTES of the body (and
 * only when `keepBody` says so: a 2xx's body is never looked at). Strict wherever being lenient
 * could misread where the answer ends: an unclear length, a bare LF or a control character in
 * the header section is an error, never a guess.
 */
export class ResponseReader {
  /** The final answer's status, once its header section was read whole and valid. */
  status: number | null = null;
  /** The final answer's first Retry-After, as sent. */
  retryAfter: string | undefined;
  /** The socket may carry another request once the answer is DONE. */
  keepAlive = false;
  /** Seconds the receiver says it keeps an idle connection (`Keep-Alive: timeout=N`). */
  idleHintSeconds: number | undefined;
  /** What was wrong, after MALFORMED. */
  problem = '';
  /** The body kept, at most READ_LIMIT_BYTES. */
  readonly body: Buffer[] = [];
  private bodyBytes = 0;
  private keepBody = false;
  private phase = HEAD;
  private remaining = 0;
  /** A header section not yet whole: the bytes so far, in a buffer that cannot outgrow the limit. */
  private partial: Buffer | null = null;
  private partialLength = 0;
  private headBytes = 0;
  /** A chunk-size or trailer line not yet whole, and what the chunked framing has taken so far. */
  private line = '';
  private framingBytes = 0;

  /** Reads the next bytes from the socket. DONE with bytes left over marks the socket as not reusable. */
  read(chunk: Buffer): ReadResult {
    let at = 0;
    while (at < chunk.length) {
      switch (this.phase) {
        case HEAD: {
          at = this.readHead(chunk, at);
          if (at < 0) return MALFORMED;
          break;
        }
        case UNTIL_CLOSE:
          return this.takeBody(chunk, at, chunk.length - at) ? LIMIT : MORE;
        case LENGTH:
        case CHUNK_DATA: {
          const take = Math.min(this.remaining, chunk.length - at);
          if (this.takeBody(chunk, at, take)) return LIMIT;
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) this.phase = this.phase === LENGTH ? FINISHED : CHUNK_END;
          break;
        }
        case CHUNK_END: {
          // The CRLF after a chunk's data, possibly split between reads (remaining counts what is left of it).
          const expected = this.remaining === 0 ? 13 : 10;
          if (chunk[at] !== expected) return this.malformed('chunk data not followed by CRLF');
          at++;
          if (this.remaining === 0) this.remaining = 1;
          else {
            this.remaining = 0;
            this.phase = CHUNK_SIZE;
          }
          break;
        }
        case CHUNK_SIZE:
        case TRAILERS: {
          const end = chunk.indexOf(10, at);
          const stop = end === -1 ? chunk.length : end + 1;
          this.framingBytes += stop - at;
          if (this.framingBytes > FRAMING_LIMIT_BYTES) return LIMIT;
          if (end === -1) {
            this.line += chunk.toString('latin1', at, stop);
            at = stop;
            break;
          }
          const line = this.line + chunk.toString('latin1', at, end);
          this.line = '';
          at = stop;
          if (!line.endsWith('\r')) return this.malformed('line not ended by CRLF');
          const result = this.phase === CHUNK_SIZE ? this.chunkSize(line.slice(0, -1)) : this.trailer(line.slice(0, -1));
          if (result !== MORE) return result;
          break;
        }
        default:
          // Bytes after the answer's end: an unsolicited answer, or garbage.
          this.keepAlive = false;
          return DONE;
      }
    }
    return this.phase === FINISHED ? DONE : MORE;
  }

  /** The receiver closed its side: true when that is how this answer's body ends (no length given). */
  endedByClose(): boolean {
    if (this.phase !== UNTIL_CLOSE) return false;
    this.phase = FINISHED;
    return true;
  }

  private malformed(problem: string): typeof MALFORMED {
    this.problem = problem;
    return MALFORMED;
  }

  private tooLarge(): -1 {
    this.malformed('response header section too large');
    return -1;
  }

  /** Keeps body bytes up to the read limit; true once the body has outgrown it. */
  private takeBody(chunk: Buffer, at: number, take: number): boolean {
    const kept = Math.min(take, READ_LIMIT_BYTES - this.bodyBytes);
    if (this.keepBody && kept > 0) this.body.push(chunk.subarray(at, at + kept));
    this.bodyBytes += take;
    return this.bodyBytes > READ_LIMIT_BYTES;
  }

  /**
   * Finds the end of a header section starting at `at`: parses it and returns the offset just
   * past it, or the chunk's length when more is needed, or -1 when the section is malformed or
   * too large. A section split across reads is gathered in one buffer of the limit's size, so
   * arriving byte by byte costs no more than arriving whole.
   */
  private readHead(chunk: Buffer, at: number): number {
    const room = HEAD_LIMIT_BYTES - this.headBytes;
    if (this.partial === null) {
      const end = chunk.indexOf(CRLFCRLF, at);
      if (end !== -1 && end + 4 - at <= room) {
        this.headBytes += end + 4 - at;
        return this.parseHead(chunk.toString('latin1', at, end)) ? end + 4 : -1;
      }
      if (chunk.length - at >= room) return this.tooLarge();
      this.partial = Buffer.allocUnsafe(room);
      this.partialLength = 0;
    }
    const from = Math.max(0, this.partialLength - 3);
    const copied = chunk.copy(this.partial, this.partialLength, at);
    this.partialLength += copied;
    const end = this.partial.subarray(0, this.partialLength).indexOf(CRLFCRLF, from);
    if (end === -1) {
      if (this.partialLength === room) return this.tooLarge();
      return chunk.length;
    }
    const head = this.partial.toString('latin1', 0, end);
    // What of this chunk belongs to the section; the rest is the body, or the next answer.
    const used = end + 4 - (this.partialLength - copied);
    this.partial = null;
    this.headBytes += end + 4;
    return this.parseHead(head) ? at + used : -1;
  }

  /** Reads one header section (status line and fields); false when malformed. Sets up the body's framing for a final answer. */
  private parseHead(head: string): boolean {
    const lines = head.split('\r\n');
    const statusLine = STATUS_LINE.exec(lines[0]!);
    if (!statusLine) return !this.malformed('status line not understood');
    const status = Number(statusLine[2]);
    let length: string | undefined;
    let codings: string[] | undefined;
    let close = false;
    let keepAlive = false;
    let retryAfter: string | undefined;
    let idleHint: string | undefined;
    for (let i = 1; i < lines.length; i++) {
      let line = lines[i]!;
      // Obsolete line folding: a line that starts with white space continues the field before it.
      while (i + 1 < lines.length && FOLDED.test(lines[i + 1]!)) line += ` ${lines[++i]!}`;
      const colon = line.indexOf(':');
      const name = line.slice(0, colon);
      if (colon <= 0 || !TOKEN.test(name) || INVALID_VALUE.test(line)) return !this.malformed('header field not understood');
      const value = line.slice(colon + 1).replace(OWS, '');
      switch (name.toLowerCase()) {
        case 'content-length':
          for (const text of listItems(value)) {
            if (!DECIMAL.test(text)) return !this.malformed('invalid content-length');
            if (length !== undefined && Number(length) !== Number(text)) return !this.malformed('conflicting content-length');
            length = text;
          }
          break;
        case 'transfer-encoding':
          codings ??= [];
          for (const coding of listItems(value)) if (coding) codings.push(coding.toLowerCase());
          break;
        case 'connection':
          for (const item of listItems(value)) {
            const option = item.toLowerCase();
            if (option === 'close') close = true;
            else if (option === 'keep-alive') keepAlive = true;
          }
          break;
        case 'retry-after':
          retryAfter ??= value;
          break;
        case 'keep-alive':
          idleHint ??= value;
          break;
      }
    }
    if (status < 200) {
      // An interim answer (100 Continue, 103 Early Hints): the final one follows. 101 would switch protocols, which was never asked for.
      if (status === 101) return !this.malformed('unexpected 101 switching protocols');
      return true;
    }
    // How the body is framed, decided (and any doubt about it refused) before the status counts.
    let phase: number;
    if (codings !== undefined && length !== undefined) return !this.malformed('both transfer-encoding and content-length');
    if (codings !== undefined) {
      const chunked = codings.indexOf('chunked');
      if (codings.length === 0) return !this.malformed('empty transfer-encoding');
      if (chunked !== -1 && chunked !== codings.length - 1) return !this.malformed('chunked is not the last transfer coding');
      phase = chunked === -1 ? UNTIL_CLOSE : CHUNK_SIZE;
    } else if (length !== undefined) phase = Number(length) === 0 ? FINISHED : LENGTH;
    else phase = UNTIL_CLOSE;
    // No body follows these, whatever their headers announce.
    if (status === 204 || status === 304) phase = FINISHED;
    this.phase = phase;
    this.remaining = phase === LENGTH ? Number(length) : 0;
    this.status = status;
    this.retryAfter = retryAfter;
    this.keepBody = status >= 300;
    const hint = idleHint === undefined ? undefined : /^timeout=(\d+)/.exec(idleHint)?.[1];
    this.idleHintSeconds = hint === undefined ? undefined : Number(hint);
    // HTTP/1.1 keeps the connection unless told to close it, HTTP/1.0 closes it unless told to keep
    // it, and a body that ends only with the connection leaves nothing to reuse.
    this.keepAlive = !close && (statusLine[1] === '1' || keepAlive) && phase !== UNTIL_CLOSE;
    return true;
  }

  private chunkSize(line: string): ReadResult {
    const size = CHUNK_SIZE_LINE.exec(line);
    const value = size ? parseInt(size[1]!, 16) : NaN;
    if (!Number.isSafeInteger(value)) return this.malformed('invalid chunk size');
    if (value === 0) this.phase = TRAILERS;
    else {
      this.remaining = value;
      this.phase = CHUNK_DATA;
    }
    return MORE;
  }

  /** One line of the trailer section after the last chunk; the empty line ends the answer. */
  private trailer(line: string): ReadResult {
    if (line === '') {
      this.phase = FINISHED;
      return MORE;
    }
    // Trailers are not used, only checked: a field line, or the continuation of one.
    const colon = line.indexOf(':');
    const field = FOLDED.test(line) || (colon > 0 && TOKEN.test(line.slice(0, colon)));
    return field && !INVALID_VALUE.test(line) ? MORE : this.malformed('trailer field not understood');
  }
}
