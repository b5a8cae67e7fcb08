import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LimitsConfig } from '../config.js';
import { sendGraphQLFailure } from '../graphql/send-failure.js';
import { routeLabeler } from '../rest/route-matcher.js';
import { sendEnvelopeFailure } from '../rest/send-failure.js';
import { refusal, type HttpFailure } from '../shared/http/failure.js';
import type { Logger } from '../shared/observability/logger.js';
import { attachRequestContext } from '../shared/request-context.js';
import type { CorsLayer } from './cors.js';
import { headerBytes } from './header-overflow.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { requestLogListener, type LoggedRequest } from './request-log.js';

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
  // Nearly every path has no percent sign, backslash or segment starting with a dot: no split then.
  if (!pathname.includes('%') && !pathname.includes('\\') && !pathname.includes('/.') && !pathname.startsWith('.')) return false;
  if (/%2f|%5c|\\/i.test(pathname)) return true;
  return pathname.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/** A refusal in the shape the path's API speaks: GraphQL error JSON on /graphql, the envelope elsewhere. */
function sendRefusal(res: ServerResponse, pathname: string, failure: HttpFailure): void {
  if (pathname === '/graphql') sendGraphQLFailure(res, failure);
  else sendEnvelopeFailure(res, failure);
}

export interface RequestEntryOptions {
  limits: LimitsConfig;
  logger: Logger;
  /** Route paths (`/api/…/:id`) and fixed paths, for metric labels. */
  routePaths: readonly string[];
  fixedPaths: readonly string[];
  /** Cross-origin headers and preflight answers (src/server/cors.ts). */
  cors: CorsLayer;
}

/**
 * The part of every request's way in that does not depend on its API: request id, log line and
 * metrics, CORS (before authentication, and on every answer, refusals included), the URL and
 * header bounds, and paths a URL parser would fold into another. Wraps the
 * app's handler once, so no route repeats any of it.
 */
export function requestEntry(
  options: RequestEntryOptions,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  onUnexpected: (req: IncomingMessage, res: ServerResponse, error: unknown) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { limits, logger } = options;
  const onClose = requestLogListener(logger, routeLabeler(options.routePaths, options.fixedPaths));
  return (req, res) => {
    const pathname = pathnameOf(req.url);
    const context: LoggedRequest = {
      requestId: requestIdOf(req.headers[REQUEST_ID_HEADER]),
      log: logger,
      started: performance.now(),
      pathname,
      logged: false,
    };
    attachRequestContext(res, context);
    res.setHeader(REQUEST_ID_HEADER, context.requestId);
    res.on('close', onClose);
    const cors = options.cors(req, res, pathname);
    if ((req.url?.length ?? 0) > limits.maxUrlLength) {
      req.resume();
      sendRefusal(res, pathname.slice(0, 16), refusal(414, 'URI_TOO_LONG', `URL exceeds ${limits.maxUrlLength} characters`));
      return;
    }
    if (headerBytes(req.rawHeaders) > limits.maxHeaderBytes) {
      req.resume();
      sendRefusal(res, pathname, refusal(431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', `Request headers exceed ${limits.maxHeaderBytes} bytes`));
      return;
    }
    if (foldsIntoAnotherPath(pathname)) {
      req.resume();
      sendEnvelopeFailure(res, refusal(400, 'BAD_REQUEST', 'Request path must not contain dot segments or encoded slashes'));
      return;
    }
    if (cors === 'preflight') {
      req.resume();
      res.writeHead(204).end();
      return;
    }
    if (cors === 'refused-preflight') {
      req.resume();
      sendRefusal(res, pathname, refusal(403, 'FORBIDDEN', 'This origin may not call the API from a browser (CORS_ORIGINS)'));
      return;
    }
    handle(req, res).catch((error: unknown) => onUnexpected(req, res, error));
  };
}
