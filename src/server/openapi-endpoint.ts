import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagOf, refuseUnlessRead, sendFixedBody } from './fixed-body.js';

export const OPENAPI_PATH = '/openapi.json';

/** The document's text, as committed in schema/openapi.json. */
export type PrintOpenApi = () => Promise<string>;

/** The generator (src/rest/openapi/) is imported on first use: serving the API never needs it. */
const printOpenApi: PrintOpenApi = async () => (await import('../rest/openapi/document.js')).printedOpenApi();

/**
 * GET /openapi.json: the REST API's OpenAPI document (src/rest/openapi/), without credentials.
 * Generated on the first request and kept for the life of the process (requests arriving
 * meanwhile wait for the same generation); a failure answers that request with the usual
 * internal-error envelope and the next request tries again. Revalidated by ETag, since a new
 * version may change the document.
 */
export function openApiEndpoint(print: PrintOpenApi = printOpenApi): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  let printed: Promise<{ body: Buffer; etag: string }> | undefined;
  return async (req, res) => {
    if (refuseUnlessRead(req, res)) return;
    printed ??= print().then(
      (text) => ({ body: Buffer.from(text), etag: etagOf(text) }),
      (error: unknown) => {
        printed = undefined;
        throw error;
      },
    );
    const { body, etag } = await printed;
    sendFixedBody(req, res, body, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', etag });
  };
}
