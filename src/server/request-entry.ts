import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LimitsConfig } from '../config.js';
import { compilePath } from '../rest/adapter.js';
import { refusal, type HttpFailure } from '../shared/http/failure.js';
import { sendEnvelopeFailure, sendFailure, sendGraphQLFailure } from '../shared/http/respond.js';
import type { Logger } from '../shared/observability/logger.js';
import { recordRequest } from '../shared/observability/metrics.js';
import { attachRequestContext, requestContextOf, type RequestContext } from '../shared/request-context.js';
import { headerBytes, overLimit } from './client-errors.js';
import type { CorsLayer, CorsOutcome } from './cors.js';
import { pathOf } from './routing-path.js';

// Printable, header- and log-safe characters only: a caller's id must not forge log fields.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:\-/+=@]{1,128}$/;

/** The caller's x-request-id when it is short and plain, otherwise a fresh UUID. */
function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}

/**
 * Whether a URL parser would fold the path into another one: "." and ".." segments in any spelling (%2e counts as a
 * dot), and encoded (%2F, %5C) or backward slashes. Refused rather than resolved, so what is routed is what the caller wrote.
 */
function foldsIntoAnotherPath(pathname: string): boolean {
  // Nearly every path has no percent sign, backslash or segment starting with a dot: no split then.
  if (!pathname.includes('%') && !pathname.includes('\\') && !pathname.includes('/.') && !pathname.startsWith('.')) return false;
  if (/%2f|%5c|\\/i.test(pathname)) return true;
  return pathname.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/** What the log line needs beyond the request context: when the request arrived and its path. */
type LoggedRequest = RequestContext & { started: number; pathname: string; logged: boolean };

/**
 * The listener (one for every request: no closure per request) that, when a response closes,
 * writes one log line and records the request metrics under its route (a fixed path, a route's
 * pattern, or "unmatched": never a raw id or a probe's path); a response never finished counts as
 * 499. The line is not redacted: its fields are fixed, and the wildcard paths cost ~10 µs a line.
 */
function requestLogListener(logger: Logger, routePaths: readonly string[], fixedPaths: readonly string[]): (this: ServerResponse) => void {
  const lines = logger.child({}, { redact: { paths: [] } });
  const patterns = [...new Set(routePaths)].map(compilePath);
  const fixed = new Set(fixedPaths);
  const routeOf = (pathname: string) => (fixed.has(pathname) ? pathname : (patterns.find((route) => route.pattern.test(pathname))?.path ?? 'unmatched'));
  return function onClose(this: ServerResponse): void {
    const context = requestContextOf(this) as LoggedRequest | undefined;
    if (context === undefined || context.logged) return;
    context.logged = true;
    const label = routeOf(context.pathname);
    const seconds = (performance.now() - context.started) / 1000;
    const status = this.writableFinished ? this.statusCode : 499;
    const method = this.req.method;
    recordRequest(label, method ?? 'GET', status, seconds);
    const { requestId, keyId } = context;
    lines.info({ requestId, method, route: label, status, durationMs: Math.round(seconds * 100_000) / 100, keyId }, 'request');
  };
}

/** What the way in answers itself, in this order; undefined for a request that goes on to its route. */
function answerAtEntry(req: IncomingMessage, pathname: string, cors: CorsOutcome, limits: LimitsConfig): HttpFailure | 'preflight' | undefined {
  if ((req.url?.length ?? 0) > limits.maxUrlLength) return overLimit(414, limits);
  if (headerBytes(req.rawHeaders) > limits.maxHeaderBytes) return overLimit(431, limits);
  if (foldsIntoAnotherPath(pathname)) return refusal(400, 'BAD_REQUEST', 'Request path must not contain dot segments or encoded slashes');
  if (cors === 'preflight') return 'preflight';
  if (cors === 'refused-preflight') return refusal(403, 'FORBIDDEN', 'This origin may not call the API from a browser (CORS_ORIGINS)');
  return undefined;
}

interface RequestEntryOptions {
  limits: LimitsConfig;
  logger: Logger;
  /** Route paths (`/api/…/:id`) and fixed paths, for metric labels. */
  routePaths: readonly string[];
  fixedPaths: readonly string[];
  cors: CorsLayer;
}

/**
 * The part of every request's way in that does not depend on its API: request id, log line and metrics, CORS (before
 * authentication, and on every answer, refusals included), the URL and header bounds, and paths a URL parser would fold.
 */
export function requestEntry(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, options: RequestEntryOptions) {
  const { limits, logger } = options;
  const onClose = requestLogListener(logger, options.routePaths, options.fixedPaths);
  return (req: IncomingMessage, res: ServerResponse): void => {
    const pathname = pathOf(req.url || '/');
    const context: LoggedRequest = { requestId: requestIdOf(req.headers['x-request-id']), log: logger, started: performance.now(), pathname, logged: false };
    attachRequestContext(res, context);
    res.setHeader('x-request-id', context.requestId);
    res.on('close', onClose);
    const answer = answerAtEntry(req, pathname, options.cors(req, res, pathname), limits);
    if (answer === undefined) {
      handle(req, res).catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else sendFailure(res, error);
      });
      return;
    }
    req.resume();
    // A refusal in the shape the path's API speaks: GraphQL error JSON on /graphql, the envelope elsewhere.
    if (answer === 'preflight') res.writeHead(204).end();
    else if (pathname === '/graphql') sendGraphQLFailure(res, answer);
    else sendEnvelopeFailure(res, answer);
  };
}
