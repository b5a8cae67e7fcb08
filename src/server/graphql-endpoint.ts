import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, parse } from 'graphql';
import type { TokenIssuer } from '../auth/tokens.js';
import type { GraphQLLimits } from '../graphql/armor.js';
import { operationCost } from '../graphql/cost.js';
import { graphqlHttpHandler } from '../graphql/http-handler.js';
import { schema } from '../graphql/schema.js';
import type { YogaApp } from '../graphql/yoga.js';
import { apiError, badInput, unauthenticated } from '../shared/errors.js';
import { failureOfError } from '../shared/http/failure.js';
import { JSON_CONTENT_TYPE, readUtf8Body } from '../shared/http/read-body.js';
import { sendGraphQLFailure } from '../shared/http/respond.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import type { Principal } from '../shared/principal.js';
import { requestContextOf } from '../shared/request-context.js';
import type { LiveStreams, LiveTicket } from '../webhooks/live-streams.js';

/** The GraphiQL page's headers: the policy lets it load only this server's assets (src/server/graphiql/assets.ts) and Monaco's styles and workers. */
const GRAPHIQL_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

const STREAM_MEDIA_TYPES = /text\/event-stream|multipart\/mixed/i;
const JSON_MEDIA_TYPES = /json|\*\/\*|application\/\*/i;
/** The needles as bytes, so a search does not encode them on every request. */
const SUBSCRIPTION_BYTES = Buffer.from('subscription');
const ESCAPE_BYTES = Buffer.from('\\u');

/** Whether a body's first byte that is not white space opens a JSON array: a batch. */
function isJsonArray(body: Buffer): boolean {
  return body.find((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) === 0x5b;
}

/**
 * A body's JSON, parsed once and only when admission needs it: a batch, or a body that may mention
 * `subscription` (a JSON string spells a letter as itself or as a `\u` escape, so a body with
 * neither cannot). A body that is not JSON is left to the handler that refuses it.
 */
function jsonToAdmit(body: Buffer | undefined): unknown {
  if (body === undefined || (!isJsonArray(body) && !body.includes(SUBSCRIPTION_BYTES) && !body.includes(ESCAPE_BYTES))) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A document, or an item of a batch, parsed; undefined when it does not parse (its handler refuses it). */
function parsed(query: unknown, maxTokens: number) {
  try {
    return typeof query === 'string' ? parse(query, { maxTokens, noLocation: true }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which handler answers: yoga's own for what only it serves (a live stream, an answer as an event stream or multipart/mixed,
 * a batch, a body sent as application/graphql+json) and graphql-http's for the rest. Both run the same pipeline.
 */
function yogaAnswers(req: IncomingMessage, liveStream: unknown, body: Buffer | undefined): boolean {
  if (liveStream) return true;
  const accept = req.headers.accept ?? '';
  if (STREAM_MEDIA_TYPES.test(accept) && !JSON_MEDIA_TYPES.test(accept)) return true;
  if (body === undefined) return false;
  return !JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '') || isJsonArray(body);
}

export interface AdmissionOptions {
  limits: Pick<GraphQLLimits, 'maxCost' | 'maxTokens' | 'batchLimit' | 'exposeLimits'>;
  /** Charges the key `points` more requests of its budget; throws RATE_LIMITED when it cannot pay. */
  charge: (principal: Principal, res: ServerResponse, points: number) => Promise<void>;
  liveStreams: LiveStreams;
  tokens: TokenIssuer;
}

/**
 * What an authenticated /graphql request passes before a GraphQL handler answers it; resolves with
 * its live-stream ticket, if it has one, and is undefined at once for nearly every request.
 * A batch counts as many requests as it has operations (authentication charged one), and their
 * costs together are held to GRAPHQL_MAX_COST before any runs; one operation is costed as it runs.
 * A request carrying a subscription operation (in its URL or body) takes a live-stream slot
 * (src/webhooks/live-streams.ts), so a stream over the caps is refused with a plain 429 rather
 * than an event stream carrying an error; a query counted so holds its slot until it is answered.
 */
export function graphqlAdmission({ limits, charge, liveStreams, tokens }: AdmissionOptions) {
  /** One operation's cost; one that does not parse or name an operation clearly is refused before it runs, and counts nothing. */
  const costOf = (item: unknown): number => {
    const document = isPlainObject(item) ? parsed(item.query, limits.maxTokens) : undefined;
    if (!document) return 0;
    const { variables, operationName } = item as Record<string, unknown>;
    try {
      return operationCost(schema, document, typeof operationName === 'string' ? operationName : undefined, isPlainObject(variables) ? variables : undefined) ?? 0;
    } catch {
      return 0;
    }
  };
  const isSubscription = (query: unknown): boolean =>
    // Cheap first: a subscription operation needs the keyword.
    typeof query === 'string' &&
    query.includes('subscription') &&
    (parsed(query, limits.maxTokens)?.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription') ?? false);
  const ticketFor = async (req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<LiveTicket> => {
    // The token was verified a moment ago (and is cached); this only learns when it expires.
    const token = /^Bearer[ ]+(\S+)$/i.exec(req.headers.authorization?.trim() ?? '')?.[1];
    const verified = token ? await tokens.verify(token) : null;
    if (!verified || verified.keyId !== principal.keyId) throw unauthenticated('Access token is invalid or expired');
    return liveStreams.admit(principal.keyId, verified.expiresAt, res);
  };
  const liveTicket = (req: IncomingMessage, res: ServerResponse, principal: Principal, json: unknown): Promise<LiveTicket> | undefined => {
    const fromUrl = req.url?.includes('?') ? new URL(req.url, 'http://localhost').searchParams.get('query') : null;
    if (fromUrl === null && json === undefined) return undefined;
    const queries = (Array.isArray(json) ? json : [json]).map((item: unknown) => (isPlainObject(item) ? item.query : undefined));
    return isSubscription(fromUrl) || queries.some(isSubscription) ? ticketFor(req, res, principal) : undefined;
  };
  const admitBatch = async (req: IncomingMessage, res: ServerResponse, principal: Principal, operations: unknown[]) => {
    await charge(principal, res, operations.length - 1);
    const total = operations.reduce<number>((sum, item) => sum + costOf(item), 0);
    if (total > limits.maxCost) {
      throw badInput(limits.exposeLimits ? `Batch cost limit of ${limits.maxCost} exceeded, found ${Math.ceil(total)}` : 'Batch cost limit exceeded');
    }
    return liveTicket(req, res, principal, operations);
  };
  return (req: IncomingMessage, res: ServerResponse, principal: Principal, body: Buffer | undefined): Promise<LiveTicket | undefined> | undefined => {
    const json = jsonToAdmit(body);
    if (Array.isArray(json) && json.length >= 2 && json.length <= limits.batchLimit) return admitBatch(req, res, principal, json);
    return liveTicket(req, res, principal, json);
  };
}

export interface GraphQLEndpointOptions extends AdmissionOptions {
  yoga: YogaApp;
  /** The GraphiQL page's HTML (src/server/graphiql/page.ts), asked for on every visit. */
  graphiqlPage: () => string;
  /** Authentication and the per-key rate limit, shared with the REST routes. */
  authenticate: (req: IncomingMessage, res: ServerResponse) => Promise<Principal>;
  bodyLimitBytes: number;
}

/**
 * /graphql: the GraphiQL page for a browser; everything else, once the caller is authenticated
 * and charged, the body read (bounded, UTF-8) and admitted (graphqlAdmission), through
 * graphql-http or yoga (yogaAnswers). What fails before either answers is GraphQL error JSON.
 */
export function graphqlEndpoint(options: GraphQLEndpointOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const httpHandler = graphqlHttpHandler(options.yoga);
  const admit = graphqlAdmission(options);
  return async (req, res) => {
    if (req.method === 'GET' && (req.headers.accept ?? '').includes('text/html')) {
      req.resume();
      const html = options.graphiqlPage();
      res.writeHead(200, { ...GRAPHIQL_HEADERS, 'content-length': Buffer.byteLength(html) }).end(html);
      return;
    }
    try {
      const principal = await options.authenticate(req, res);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      // yoga would answer other media types with an empty 4xx; say why, as GraphQL JSON.
      if (hasBody && !/^application\/(graphql\+)?json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
      }
      const body = hasBody ? await readUtf8Body(req, options.bodyLimitBytes) : undefined;
      const admitting = admit(req, res, principal, body);
      const liveStream = admitting && (await admitting);
      const context = { principal, requestId: requestContextOf(res)?.requestId, liveStream };
      if (!yogaAnswers(req, liveStream, body)) return await httpHandler(req, res, context, body);
      // yoga takes the body already read as an async iterable instead of the socket.
      if (body !== undefined) (req as IncomingMessage & { body?: unknown }).body = { size: body.length, async *[Symbol.asyncIterator]() { yield body; } };
      await options.yoga(req, res, context);
    } catch (thrown) {
      req.resume();
      if (res.headersSent) throw thrown;
      sendGraphQLFailure(res, failureOfError(thrown));
    }
  };
}
