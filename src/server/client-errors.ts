import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { LimitsConfig } from '../config.js';
import { refusal, type HttpFailure } from '../shared/http/failure.js';
import { failureEnvelope, sendEnvelopeFailure } from '../shared/http/respond.js';
import type { Logger } from '../shared/observability/logger.js';

/** A request line's start: a method, one space, and the start of a request target. */
const REQUEST_LINE = /^[A-Z]+ (?=[/*]|https?:)/;

/** The request target, when `text` starts with a request line (blank lines before it are allowed). */
function requestTargetAtStart(text: string): string | null {
  const line = text.replace(/^(\r?\n)+/, '');
  const method = REQUEST_LINE.exec(line);
  if (!method) return null;
  return /^[^ \r\n]*/.exec(line.slice(method[0].length))?.[0] ?? '';
}

/**
 * Node counts the request target and the header fields against one budget (maxHeaderSize) and
 * reports HPE_HEADER_OVERFLOW for either: which limit a refused request broke, from the packet
 * node was parsing when it gave up (`bytesParsed` is where in it node stopped). A packet starting
 * with the request line has its target measured; otherwise the line node stopped in decides (a
 * request line: the target ran over). In the middle of a line (a request sent in small pieces), a
 * space after the stop ends a target, a line break or colon a header; at the packet's end, white
 * space in it marks a header (a request target has none).
 */
export function headerOverflowStatus(packet: Buffer | undefined, bytesParsed: number | undefined, maxUrlLength: number): 414 | 431 {
  if (packet === undefined || packet.length === 0) return 431;
  const text = packet.toString('latin1');
  const end = typeof bytesParsed === 'number' && bytesParsed >= 0 && bytesParsed <= text.length ? bytesParsed : text.length;
  const target = requestTargetAtStart(text);
  if (target !== null && target.length > maxUrlLength) return 414;
  const lineStart = text.lastIndexOf('\n', end - 1) + 1;
  if (lineStart > 0 || target !== null) return requestTargetAtStart(text.slice(lineStart)) === null ? 431 : 414;
  const next = text[end];
  if (next === ' ') return 414;
  if (next !== undefined) return 431;
  return /[ \t]/.test(text.slice(0, end)) ? 431 : 414;
}

/** The bytes node counts against maxHeaderSize for the header fields alone: names and values. */
export function headerBytes(rawHeaders: readonly string[]): number {
  return rawHeaders.reduce((total, item) => total + item.length, 0);
}

/** The refusal of a request target (414) or headers (431) over their limit, whether node or request-entry.ts finds it. */
export function overLimit(status: 414 | 431, limits: LimitsConfig): HttpFailure {
  return status === 414
    ? refusal(414, 'URI_TOO_LONG', `URL exceeds ${limits.maxUrlLength} characters`)
    : refusal(431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', `Request headers exceed ${limits.maxHeaderBytes} bytes`);
}

/** An error node's HTTP parser reports, with the packet it was parsing and where in it it stopped. */
type ParserError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

function failureOf(error: ParserError, limits: LimitsConfig): HttpFailure {
  if (error.code === 'HPE_HEADER_OVERFLOW') return overLimit(headerOverflowStatus(error.rawPacket, error.bytesParsed, limits.maxUrlLength), limits);
  if (error.code === 'HPE_URI_TOO_LONG') return overLimit(414, limits);
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return refusal(408, 'REQUEST_TIMEOUT', STATUS_CODES[408]!);
  return refusal(400, 'BAD_REQUEST', STATUS_CODES[400]!);
}

/**
 * Answers what node refuses before or while a handler runs (oversized headers, time-outs,
 * malformed HTTP) in the envelope, instead of node's bare status line.
 */
export function answerClientErrors(server: Server, logger: Logger, limits: LimitsConfig): void {
  // The response each connection is answering: node links the two only through internals.
  const answering = new WeakMap<Socket, ServerResponse>();
  server.on('request', (req, res) => answering.set(req.socket, res));
  server.on('clientError', (error: ParserError, socket: Socket) => {
    const failure = failureOf(error, limits);
    logger.info({ status: failure.status, code: error.code ?? '' }, 'client error');
    const tracked = answering.get(socket);
    const pending = tracked && !tracked.writableFinished ? tracked : undefined;
    if (pending && !pending.headersSent) {
      // The request had reached a handler (a slow body): answer through its response object.
      sendEnvelopeFailure(pending, failure, { connection: 'close' });
      pending.once('finish', () => socket.destroySoon());
      return;
    }
    if (!socket.writable || pending) {
      socket.destroy();
      return;
    }
    // No response is under way: the envelope goes straight onto the socket.
    const body = JSON.stringify(failureEnvelope(failure.status, failure.messages));
    socket.end(
      `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
