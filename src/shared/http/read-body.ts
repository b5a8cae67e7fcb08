import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { apiError, badInput } from '../errors.js';
import { isPlainObject } from '../is-plain-object.js';

const NO_BODY = Buffer.alloc(0);

/** A Content-Type of application/json, with or without parameters. */
export const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/** What a request that closes before its body ends is refused with, as node's stream helpers word it. */
const prematureClose = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });

/**
 * Reads the whole request body, refusing more than `limit` bytes with PAYLOAD_TOO_LARGE; a
 * request that closes or fails before its body ends is refused with that error.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) {
    // No body (RFC 9112, section 6.3), as most GETs: let the stream end by itself.
    req.resume();
    return Promise.resolve(NO_BODY);
  }
  if (Number(length) > limit) {
    req.resume();
    return Promise.reject(apiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`));
  }
  // A small body nearly always comes in the headers' packet, and node's parser hands it to the stream
  // right after this request's handler returns: a microtask later, a body that has wholly arrived (the
  // parser never hands a request more than its Content-Length) is taken from the stream's buffer.
  return Promise.resolve().then(() => {
    if (chunked || req.destroyed || req.readableLength !== Number(length)) return readArriving(req, limit);
    const body = (req.read() as Buffer | null) ?? NO_BODY;
    // Lets the stream end by itself, as reading it to its end would.
    req.resume();
    return body;
  });
}

/** A body still arriving (or ended or closed already), from the stream's events: an async iterator costs a promise per chunk and holds the request longer. */
function readArriving(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(NO_BODY);
  if (req.destroyed) return Promise.reject(prematureClose());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.resume();
      // Once the bytes that came with this chunk are parsed: a body that has all arrived gets
      // its 413 answered; one still arriving is not waited for (the connection closes).
      setImmediate(() => {
        if (!req.complete) req.destroy();
        reject(apiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`));
      });
    };
    // 'end' calls it without an error, 'error' with one.
    const finish = (error?: Error) => {
      stop();
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onClose = () => finish(prematureClose());
    const stop = () => req.off('data', onData).off('end', finish).off('error', finish).off('close', onClose);
    req.on('data', onData).on('end', finish).on('error', finish).on('close', onClose);
  });
}

/** Reads the whole body (readBody) and lets it through only as UTF-8 (utf8Body). */
export async function readUtf8Body(req: IncomingMessage, limit: number): Promise<Buffer> {
  return utf8Body(await readBody(req, limit), req.headers['content-type']);
}

/** Whether any charset parameter of a Content-Type value (quoted or not, in any case) names another charset than UTF-8. */
function declaresOtherCharset(contentType: string | undefined): boolean {
  // Most values have no parameters at all (`application/json`).
  if (contentType === undefined || !contentType.includes(';')) return false;
  return contentType.split(';').slice(1).some((parameter) => {
    const charset = /^\s*charset\s*=\s*(.*?)\s*$/i.exec(parameter)?.[1]?.replace(/^"(.*)"$/, '$1').trim().toLowerCase();
    return charset !== undefined && charset !== 'utf-8' && charset !== 'utf8';
  });
}

/**
 * UTF-16 or UTF-32 text, told by its byte order mark or, without one, by the zero bytes that
 * text starting with two ASCII characters has in its first four bytes (RFC 4627, section 3).
 */
function looksLikeUtf16Or32(body: Buffer): boolean {
  const a = body[0], b = body[1], c = body[2], d = body[3];
  if ((a === 0xfe && b === 0xff) || (a === 0xff && b === 0xfe)) return true;
  if (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff) return true;
  if (body.length < 4) return false;
  // The zero bytes of the first four, as the patterns 000x, 0x0x, x000 and x0x0.
  const zeros = (a === 0 ? 8 : 0) | (b === 0 ? 4 : 0) | (c === 0 ? 2 : 0) | (d === 0 ? 1 : 0);
  return zeros === 0b1110 || zeros === 0b1010 || zeros === 0b0111 || zeros === 0b0101;
}

/**
 * The body's bytes without a UTF-8 byte order mark; 415 for another charset declared in Content-Type,
 * UTF-16/32 text or invalid UTF-8 (decoded as UTF-8, they would store U+FFFD in place of what the
 * caller sent). An empty body has no charset to be wrong about.
 */
export function utf8Body(raw: Buffer, contentType: string | undefined): Buffer {
  if (raw.length === 0) return raw;
  if (declaresOtherCharset(contentType)) {
    throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be UTF-8; Content-Type declares another charset');
  }
  if (looksLikeUtf16Or32(raw)) throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be UTF-8, not UTF-16 or UTF-32');
  const body = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
  if (!isUtf8(body)) throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Request body is not valid UTF-8');
  return body;
}

/**
 * Reads a JSON object body: Content-Type must be application/json (415), the bytes UTF-8 (415),
 * the text must parse (400), it must be an object (400), and only `allowed` keys may appear (400).
 */
export async function readJsonObject(req: IncomingMessage, limit: number, allowed: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const raw = await readBody(req, limit);
  if (!JSON_CONTENT_TYPE.test(req.headers['content-type']?.trim() ?? '')) {
    throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  }
  const text = utf8Body(raw, req.headers['content-type']).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badInput('Request body is not valid JSON');
  }
  if (!isPlainObject(parsed)) throw badInput('Request body must be a JSON object');
  const unknown = Object.keys(parsed).filter((key) => !allowed.has(key));
  if (unknown.length > 0) throw badInput(`Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`);
  return parsed;
}
