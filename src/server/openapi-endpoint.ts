import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendEnvelopeFailure } from '../rest/send-failure.js';
import { refusal } from '../shared/http/failure.js';

export const OPENAPI_PATH = '/openapi.json';

/** The document's text, as committed in schema/openapi.json. */
export type PrintOpenApi = () => Promise<string>;

/** The generator (src/rest/openapi/) is imported on first use: serving the API never needs it. */
const printOpenApi: PrintOpenApi = async () => (await import('../rest/openapi/document.js')).printedOpenApi();

interface Printed {
  body: Buffer;
  etag: string;
}

function printed(text: string): Printed {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * GET /openapi.json: the REST API's OpenAPI document (src/rest/openapi/), without credentials.
 * Generated on the first request and kept for the life of the process (requests arriving
 * meanwhile wait for the same generation); a failure answers that request with the usual
 * internal-error envelope and the next request tries again. Revalidated by ETag, since a new
 * version may change the document.
 */
export function openApiEndpoint(print: PrintOpenApi = printOpenApi): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  let document: Promise<Printed> | undefined;
  const load = (): Promise<Printed> => {
    document ??= print().then(printed, (error: unknown) => {
      document = undefined;
      throw error;
    });
    return document;
  };
  return async (req, res) => {
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendEnvelopeFailure(res, refusal(405, 'METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use GET`), { allow: 'GET, HEAD' });
      return;
    }
    const { body, etag } = await load();
    const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', etag };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
