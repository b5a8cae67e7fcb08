import { STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { LimitsConfig } from '../config.js';
import type { Logger } from '../observability/logger.js';
import { recordRequest } from '../observability/metrics.js';
import { sendGraphQLFailure } from '../graphql/send-failure.js';
import { failureEnvelope } from '../rest/envelope.js';
import { sendEnvelopeFailure } from '../rest/send-failure.js';
import { refusal, type HttpFailure } from './failure.js';
import type { RestRoute } from '../rest/routes.js';
import type { RateLimits } from './rate-limits.js';
import { headerBytes, headerOverflowStatus } from './header-overflow.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';

/** What the road learns about a request on the way, for its log line. Kept on the response. */
export interface RequestFacts {
  requestId: string;
  keyId?: number;
  /** The app's logger, so free functions such as sendFailure log without a global. */
  log: Logger;
}

const FACTS = Symbol('shiftgate.request');
type Tracked = ServerResponse & { [FACTS]?: RequestFacts };

export function factsOf(res: ServerResponse): RequestFacts | undefined {
  return (res as Tracked)[FACTS];
}


/**
 * Node server options that bound header size and slow clients (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS).
 * Node counts the request target towards maxHeaderSize, so it gets room for both limits; each is
 * then checked on its own (requestRoad), and what node refuses is sorted out by answerClientErrors.
 */
export function serverOptions(limits: LimitsConfig): ServerOptions {
  return {
    // Node refuses once the count reaches maxHeaderSize: one byte more lets both limits be met exactly.
    maxHeaderSize: limits.maxUrlLength + limits.maxHeaderBytes + 1,
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    // Node checks the two time-outs on this interval (default 30 s): keep it well under them.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** Route patterns for metric labels, so a label never carries a raw id or a probe's path. */
function routeMatcher(routes: readonly RestRoute[], fixed: readonly string[]): (pathname: string) => string {
  const patterns = routes.map((r) => ({
    label: r.path,
    regex: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
  }));
  const exact = new Set(fixed);
  return (pathname) => {
    if (exact.has(pathname)) return pathname;
    for (const p of patterns) if (p.regex.test(pathname)) return p.label;
    return 'unmatched';
  };
}

function pathnameOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Whether a URL parser would fold the path into another one: "." and ".." segments in any
 * spelling (%2e counts as a dot), and slashes that are encoded (%2F, %5C) or backward. Such a path
 * is refused rather than resolved, so what is routed is always what the caller wrote.
 */
export function foldsIntoAnotherPath(pathname: string): boolean {
  if (/%2f|%5c|\\/i.test(pathname)) return true;
  return pathname.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/** A refusal in the shape the path's API speaks: GraphQL error JSON on /graphql, the envelope elsewhere. */
function sendRefusal(res: ServerResponse, pathname: string, failure: HttpFailure): void {
  if (pathname === '/graphql') sendGraphQLFailure(res, failure);
  else sendEnvelopeFailure(res, failure);
}

export interface RequestRoadOptions {
  limits: LimitsConfig;
  logger: Logger;
  routes: readonly RestRoute[];
  fixedRoutes: readonly string[];
}

/**
 * The part of every request's road that does not depend on its API: request id, URL length,
 * the log line and the metrics. Wraps the app's handler once, so no route repeats any of it.
 */
export function requestRoad(
  options: RequestRoadOptions,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  onUnexpected: (req: IncomingMessage, res: ServerResponse, error: unknown) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { limits, logger } = options;
  const routeOf = routeMatcher(options.routes, options.fixedRoutes);
  return (req, res) => {
    const started = performance.now();
    const facts: RequestFacts = { requestId: requestIdOf(req.headers[REQUEST_ID_HEADER]), log: logger };
    (res as Tracked)[FACTS] = facts;
    res.setHeader(REQUEST_ID_HEADER, facts.requestId);
    res.once('close', () => {
      const pathname = pathnameOf(req.url);
      const route = routeOf(pathname);
      const seconds = (performance.now() - started) / 1000;
      const status = res.writableFinished ? res.statusCode : 499;
      recordRequest(route, req.method ?? 'GET', status, seconds);
      logger.info(
        {
          requestId: facts.requestId,
          method: req.method,
          route,
          status,
          durationMs: Math.round(seconds * 100_000) / 100,
          keyId: facts.keyId,
        },
        'request',
      );
    });
    if ((req.url?.length ?? 0) > limits.maxUrlLength) {
      req.resume();
      sendRefusal(res, pathnameOf(req.url).slice(0, 16), refusal(414, 'URI_TOO_LONG', `URL exceeds ${limits.maxUrlLength} characters`));
      return;
    }
    if (headerBytes(req.rawHeaders) > limits.maxHeaderBytes) {
      req.resume();
      sendRefusal(res, pathnameOf(req.url), refusal(431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', `Request headers exceed ${limits.maxHeaderBytes} bytes`));
      return;
    }
    const pathname = pathnameOf(req.url);
    if (foldsIntoAnotherPath(pathname)) {
      req.resume();
      sendEnvelopeFailure(res, refusal(400, 'BAD_REQUEST', 'Request path must not contain dot segments or encoded slashes'));
      return;
    }
    handle(req, res).catch((error: unknown) => onUnexpected(req, res, error));
  };
}

const CLIENT_ERROR_CODES: Record<number, string> = {
  408: 'REQUEST_TIMEOUT',
  414: 'URI_TOO_LONG',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
};

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
    const status =
      code === 'HPE_HEADER_OVERFLOW'
        ? headerOverflowStatus(error.rawPacket, error.bytesParsed, limits.maxUrlLength)
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : code === 'HPE_URI_TOO_LONG'
            ? 414
            : 400;
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
    const body = JSON.stringify(failureEnvelope(status, [message]));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * Authentication and the per-key budget, in this order, for both APIs: the one gate between
 * the headers and any route or resolver. The key id is noted for the log line.
 */
export class Admission {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly rateLimits: RateLimits,
  ) {}

  async admit(req: IncomingMessage, res: ServerResponse): Promise<Principal> {
    const principal = await this.authenticator.authenticate(req.headers);
    const facts = factsOf(res);
    if (facts) facts.keyId = principal.keyId;
    await this.rateLimits.perKey.consume(principal.keyId, res);
    return principal;
  }
}
