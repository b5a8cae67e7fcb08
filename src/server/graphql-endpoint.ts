import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonArray, type GraphQLAdmission } from '../graphql/admission.js';
import { graphqlHttpHandler } from '../graphql/http-handler.js';
import type { YogaApp } from '../graphql/yoga.js';
import { apiError } from '../shared/errors.js';
import { failureOfError } from '../shared/http/failure.js';
import { readUtf8Body } from '../shared/http/read-body.js';
import { sendGraphQLFailure } from '../shared/http/respond.js';
import type { Principal } from '../shared/principal.js';
import { requestContextOf } from '../shared/request-context.js';

/**
 * The GraphiQL page's headers. Everything the page loads comes from this server
 * (src/server/graphiql/assets.ts); the policy makes the browser refuse anything else. Monaco adds
 * style elements and starts its workers.
 */
const GRAPHIQL_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': [
    "default-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
};

export interface GraphQLEndpointOptions {
  yoga: YogaApp;
  /** The GraphiQL page's HTML (src/server/graphiql/page.ts), asked for on every visit. */
  graphiqlPage: () => string;
  /** Authentication and the per-key rate limit, shared with the REST routes. */
  authenticate: (req: IncomingMessage, res: ServerResponse) => Promise<Principal>;
  admission: GraphQLAdmission;
  bodyLimitBytes: number;
}

const STREAM_MEDIA_TYPES = /text\/event-stream|multipart\/mixed/i;
const JSON_MEDIA_TYPES = /json|\*\/\*|application\/\*/i;
const JSON_BODY = /^application\/json\s*(;|$)/i;

/**
 * Which handler answers: yoga's own for what only it serves — a live stream (an admitted
 * subscription), an answer as an event stream or multipart/mixed, a batch (a JSON array), a body
 * sent as application/graphql+json — and graphql-http's for the rest. Both run the same pipeline.
 */
function yogaAnswers(req: IncomingMessage, liveStream: unknown, body: Buffer | undefined): boolean {
  if (liveStream) return true;
  const accept = req.headers.accept ?? '';
  if (STREAM_MEDIA_TYPES.test(accept) && !JSON_MEDIA_TYPES.test(accept)) return true;
  if (body === undefined) return false;
  return !JSON_BODY.test(req.headers['content-type'] ?? '') || isJsonArray(body);
}

/**
 * /graphql: the GraphiQL page for a browser; everything else, once the caller is authenticated
 * and charged, the body read (bounded, UTF-8) and admitted (src/graphql/admission.ts), through
 * graphql-http or yoga (yogaAnswers). What fails before either answers is GraphQL error JSON.
 */
export function graphqlEndpoint(options: GraphQLEndpointOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { yoga } = options;
  const httpHandler = graphqlHttpHandler(yoga);
  return async (req, res) => {
    if (req.method === 'GET' && (req.headers.accept ?? '').includes('text/html')) {
      req.resume();
      const html = options.graphiqlPage();
      res.writeHead(200, { ...GRAPHIQL_HEADERS, 'content-length': Buffer.byteLength(html) }).end(html);
      return;
    }
    try {
      const principal = await options.authenticate(req, res);
      let body: Buffer | undefined;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // yoga would answer other media types with an empty 4xx; say why, as GraphQL JSON.
        if (!/^application\/(graphql\+)?json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
          throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
        }
        body = await readUtf8Body(req, options.bodyLimitBytes);
      }
      const admitting = options.admission.admit(req, res, principal, body);
      const liveStream = admitting && (await admitting);
      const context = { principal, requestId: requestContextOf(res)?.requestId, liveStream };
      if (!yogaAnswers(req, liveStream, body)) return await httpHandler(req, res, context, body);
      if (body !== undefined) {
        const read = body;
        // yoga takes the body already read as an async iterable instead of the socket.
        (req as IncomingMessage & { body?: unknown }).body = { size: read.length, async *[Symbol.asyncIterator]() { yield read; } };
      }
      await yoga(req, res, context);
    } catch (thrown) {
      req.resume();
      if (res.headersSent) throw thrown;
      sendGraphQLFailure(res, failureOfError(thrown));
    }
  };
}
