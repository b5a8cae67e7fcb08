import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request headers a browser may send cross-origin beyond the CORS-safelisted ones. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'external-gh-apim-sub-key', 'x-request-id', 'idempotency-key'].join(', ');
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
/** Response headers a browser script may read: the request id to quote, and how long to back off. */
const EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'ratelimit', 'ratelimit-policy', 'www-authenticate'].join(', ');
/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * What the CORS layer made of a request (its headers already set): the caller answers `preflight`
 * with 204 and `refused-preflight` with a refusal without CORS headers; `continue` goes on to routing.
 */
export type CorsOutcome = 'preflight' | 'refused-preflight' | 'continue';

export type CorsLayer = (req: IncomingMessage, res: ServerResponse, pathname: string) => CorsOutcome;

/** The CORS layer for a list of exact origins, or `*` alone for any origin. */
export function corsLayer(origins: readonly string[]): CorsLayer {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return (req, res, pathname) => {
    // The paths browsers may call: both APIs and the API description. By path rather than by route,
    // so an answer the router gives (404, 405) or a path added later is covered the same way.
    if (pathname !== '/graphql' && pathname !== '/openapi.json' && !pathname.startsWith('/api/')) return 'continue';
    // Set on every answer of these paths, allowed or not, so a cache never hands one origin's answer to another.
    res.setHeader('vary', 'Origin');
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined;
    if (origin === undefined) return 'continue';
    if (!any && !allowed.has(origin)) return preflight ? 'refused-preflight' : 'continue';
    // No Access-Control-Allow-Credentials: the APIs take credentials in headers, never cookies.
    res.setHeader('access-control-allow-origin', any ? '*' : origin);
    if (!preflight) {
      res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
      return 'continue';
    }
    res.setHeader('access-control-allow-methods', ALLOWED_METHODS);
    res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.setHeader('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
    return 'preflight';
  };
}
