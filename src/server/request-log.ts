import type { ServerResponse } from 'node:http';
import type { Logger } from '../shared/observability/logger.js';
import { recordRequest } from '../shared/observability/metrics.js';
import { requestContextOf, type RequestContext } from '../shared/request-context.js';

/** What the log line needs beyond the request context: when the request arrived and its path. */
export interface LoggedRequest extends RequestContext {
  started: number;
  pathname: string;
  logged: boolean;
}

/**
 * The listener that, when a response closes however it ends, writes one log line and records the
 * request metrics under the route's pattern (never the raw path); a response that never finished
 * counts as 499. One function for every request, reading the request context, so a request
 * allocates no closure for it. The line is written without redaction: its fixed fields hold no
 * redacted path, and the wildcard paths would cost ~10 µs a line (docs/decisions.md).
 */
export function requestLogListener(logger: Logger, routeOf: (pathname: string) => string): (this: ServerResponse) => void {
  const lines = logger.child({}, { redact: { paths: [] } });
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
