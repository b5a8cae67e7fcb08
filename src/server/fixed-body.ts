import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { refuseMethod } from '../shared/http/respond.js';

/** A strong validator for a body that never changes while the process runs. */
export function etagOf(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Refuses (405) any method but GET and HEAD on a path that only serves a fixed body; true when it did. */
export function refuseUnlessRead(req: IncomingMessage, res: ServerResponse): boolean {
  req.resume();
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  refuseMethod(req, res, 'GET, HEAD', 'GET');
  return true;
}

/**
 * Answers a GET or HEAD with a fixed body: `headers` on every answer, and a 304 instead when they
 * carry an ETag the request names; `bodyHeaders` only with the body.
 */
export function sendFixedBody(req: IncomingMessage, res: ServerResponse, body: Buffer, headers: OutgoingHttpHeaders, bodyHeaders: OutgoingHttpHeaders = {}): void {
  if (headers.etag !== undefined && req.headers['if-none-match'] === headers.etag) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, ...bodyHeaders, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}
