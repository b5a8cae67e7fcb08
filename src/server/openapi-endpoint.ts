import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { printedOpenApi } from '../rest/openapi/printed.js';
import { sendEnvelopeFailure } from '../rest/send-failure.js';
import { refusal } from '../shared/http/failure.js';

export const OPENAPI_PATH = '/openapi.json';

/**
 * GET /openapi.json: the REST API's OpenAPI document (src/rest/openapi/), without credentials.
 * Generated once per process; revalidated by ETag, since a new version may change it.
 */
export function openApiEndpoint(): (req: IncomingMessage, res: ServerResponse) => void {
  const body = Buffer.from(printedOpenApi(), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return (req, res) => {
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendEnvelopeFailure(res, refusal(405, 'METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use GET`), { allow: 'GET, HEAD' });
      return;
    }
    const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', etag };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
