import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { apiError } from '../errors.js';

const NO_BODY = Buffer.alloc(0);

/**
 * Whether the request says it has no body: neither Transfer-Encoding nor a Content-Length, or a
 * Content-Length of 0 (RFC 9112, section 6.3). Most GETs; node's parser holds no bytes for them.
 */
function declaresNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/** Reads the whole request body, refusing more than `limit` bytes with PAYLOAD_TOO_LARGE. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaresNoBody(req)) {
    // Nothing to wait for: let the stream end by itself instead of iterating over it.
    req.resume();
    return NO_BODY;
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw apiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw apiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Reads the whole body (see readBody) and lets it through only as UTF-8: see utf8Body. */
export async function readUtf8Body(req: IncomingMessage, limit: number): Promise<Buffer> {
  return utf8Body(await readBody(req, limit), req.headers['content-type']);
}

const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);

/** Every charset parameter of a Content-Type value, unquoted and in lower case. */
function declaredCharsets(contentType: string | undefined): string[] {
  if (contentType === undefined) return [];
  return contentType
    .split(';')
    .slice(1)
    .map((parameter) => /^\s*charset\s*=\s*(.*?)\s*$/i.exec(parameter)?.[1])
    .filter((value): value is string => value !== undefined)
    .map((value) => value.replace(/^"(.*)"$/, '$1').trim().toLowerCase());
}

/**
 * UTF-16 or UTF-32 text, told by its byte order mark or, without one, by the zero bytes that
 * text starting with two ASCII characters has in its first four bytes (RFC 4627, section 3).
 */
function looksLikeUtf16Or32(body: Buffer): boolean {
  const [a, b, c, d] = body;
  if ((a === 0xfe && b === 0xff) || (a === 0xff && b === 0xfe)) return true;
  if (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff) return true;
  if (body.length < 4) return false;
  const zero = [a === 0, b === 0, c === 0, d === 0];
  const pattern = zero.map((z) => (z ? '0' : 'x')).join('');
  return pattern === '000x' || pattern === '0x0x' || pattern === 'x000' || pattern === 'x0x0';
}

/**
 * The body's bytes when they are UTF-8, without a UTF-8 byte order mark; 415 otherwise: a
 * charset other than UTF-8 declared in Content-Type, UTF-16/32 text, or bytes that are not valid
 * UTF-8. Decoding anything else as UTF-8 would store U+FFFD in place of what the caller sent.
 * An empty body has no charset to be wrong about.
 */
export function utf8Body(raw: Buffer, contentType: string | undefined): Buffer {
  if (raw.length === 0) return raw;
  if (declaredCharsets(contentType).some((charset) => !UTF8_CHARSETS.has(charset))) {
    throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be UTF-8; Content-Type declares another charset');
  }
  if (looksLikeUtf16Or32(raw)) throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be UTF-8, not UTF-16 or UTF-32');
  const body = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
  if (!isUtf8(body)) throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Request body is not valid UTF-8');
  return body;
}
