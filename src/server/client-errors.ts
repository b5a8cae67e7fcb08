import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { LimitsConfig } from '../config.js';
import { failureEnvelope } from '../rest/envelope.js';
import { sendEnvelopeFailure } from '../rest/send-failure.js';
import { refusal } from '../shared/http/failure.js';
import type { Logger } from '../shared/observability/logger.js';
import { headerOverflowStatus } from './header-overflow.js';

const CLIENT_ERROR_CODES: Record<number, string> = { 408: 'REQUEST_TIMEOUT', 414: 'URI_TOO_LONG', 431: 'REQUEST_HEADER_FIELDS_TOO_LARGE' };
/** The statuses of node's parser errors but a header overflow (which headerOverflowStatus sorts out); others are 400. */
const STATUS_OF: Record<string, number> = { ERR_HTTP_REQUEST_TIMEOUT: 408, HPE_URI_TOO_LONG: 414 };

/** What node's HTTP parser attaches to the errors it reports. */
interface ParserError extends Error {
  code?: string;
  /** The packet being parsed when the error was found. */
  rawPacket?: Buffer;
  /** Where in rawPacket the parser stopped. */
  bytesParsed?: number;
}

/**
 * Answers what node refuses before a handler runs (oversized headers, time-outs, malformed
 * HTTP) in the envelope, instead of node's bare status line.
 */
export function answerClientErrors(server: Server, logger: Logger, limits: LimitsConfig): void {
  server.on('clientError', (error: ParserError, socket: Socket) => {
    const code = error.code ?? '';
    const status = code === 'HPE_HEADER_OVERFLOW' ? headerOverflowStatus(error.rawPacket, error.bytesParsed, limits.maxUrlLength) : (STATUS_OF[code] ?? 400);
    logger.info({ status, code }, 'client error');
    const message =
      status === 414
        ? `URL exceeds ${limits.maxUrlLength} characters`
        : status === 431
          ? `Request headers exceed ${limits.maxHeaderBytes} bytes`
          : (STATUS_CODES[status] ?? 'Bad request');
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (pending && !pending.headersSent) {
      // The request had reached a handler (a slow body): answer through its response object.
      pending.shouldKeepAlive = false;
      sendEnvelopeFailure(pending, refusal(status, CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST', message), { connection: 'close' });
      pending.once('finish', () => socket.destroySoon());
      return;
    }
    if (!socket.writable || (pending && pending.headersSent)) {
      socket.destroy();
      return;
    }
    // No response object exists yet: the envelope goes straight onto the socket.
    const body = JSON.stringify(failureEnvelope(status, [message]));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
