import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../shared/observability/logger.js';
import { recordRequest } from '../shared/observability/metrics.js';
import type { RequestContext } from '../shared/request-context.js';

/**
 * When the response closes, however it ends: one log line and the request metrics, under the
 * route's pattern (never the raw path). A response that never finished counts as 499.
 */
export function logWhenClosed(
  req: IncomingMessage,
  res: ServerResponse,
  context: RequestContext,
  logger: Logger,
  route: () => string,
): void {
  const started = performance.now();
  res.once('close', () => {
    const label = route();
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : 499;
    recordRequest(label, req.method ?? 'GET', status, seconds);
    logger.info(
      {
        requestId: context.requestId,
        method: req.method,
        route: label,
        status,
        durationMs: Math.round(seconds * 100_000) / 100,
        keyId: context.keyId,
      },
      'request',
    );
  });
}
