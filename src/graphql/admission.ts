import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, parse, type GraphQLSchema } from 'graphql';
import type { TokenIssuer } from '../auth/tokens.js';
import { badInput, unauthenticated } from '../shared/errors.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import type { Principal } from '../shared/principal.js';
import type { LiveStreams, LiveTicket } from '../webhooks/live-streams.js';
import type { GraphQLLimits } from './armor.js';
import { operationCost } from './cost.js';

/** The needles as bytes, so a search does not encode them on every request. */
const SUBSCRIPTION_BYTES = Buffer.from('subscription');
const ESCAPE_BYTES = Buffer.from('\\u');
const BEARER = /^Bearer[ ]+(\S+)$/i;

/** Whether a body's first byte that is not white space opens a JSON array: a batch. */
export function isJsonArray(body: Buffer): boolean {
  return body.find((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) === 0x5b;
}

/**
 * A body's JSON, parsed once and only when admission needs it: a batch, or a body that may mention
 * `subscription`. A JSON string spells a letter either as itself or as a `\u` escape (its other
 * escapes stand for punctuation and white space), so a body with neither cannot. A body that is
 * not JSON is left to the handler that refuses it.
 */
function jsonToAdmit(body: Buffer | undefined): unknown {
  if (body === undefined || (!isJsonArray(body) && !body.includes(SUBSCRIPTION_BYTES) && !body.includes(ESCAPE_BYTES))) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** One operation's cost; one that does not parse or name an operation clearly is refused before it runs, and counts nothing. */
function itemCost(schema: GraphQLSchema, item: unknown, maxTokens: number): number {
  if (!isPlainObject(item) || typeof item.query !== 'string') return 0;
  const variables = isPlainObject(item.variables) ? item.variables : undefined;
  const operationName = typeof item.operationName === 'string' ? item.operationName : undefined;
  try {
    return operationCost(schema, parse(item.query, { maxTokens, noLocation: true }), operationName, variables) ?? 0;
  } catch {
    return 0;
  }
}

function hasSubscription(document: string, maxTokens: number): boolean {
  // Cheap first: a subscription operation needs the keyword.
  if (!document.includes('subscription')) return false;
  try {
    return parse(document, { noLocation: true, maxTokens }).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription');
  } catch {
    return false; // the handler answers the syntax error itself
  }
}

export interface GraphQLAdmissionOptions {
  schema: GraphQLSchema;
  limits: Pick<GraphQLLimits, 'maxCost' | 'maxTokens' | 'batchLimit' | 'exposeLimits'>;
  /** Charges the key `points` more requests of its budget; throws RATE_LIMITED when it cannot pay. */
  charge: (principal: Principal, res: ServerResponse, points: number) => Promise<void>;
  streams: LiveStreams;
  tokens: TokenIssuer;
}

/**
 * What an authenticated /graphql request passes before a GraphQL handler answers it.
 *
 * A batch counts as many requests as it has operations (authentication charged one, the others
 * are charged here), and their costs together are held to GRAPHQL_MAX_COST before any runs; one
 * operation is costed as it runs, a bad batch is refused by yoga.
 *
 * A request that carries a subscription operation (in its URL or body, whichever is selected)
 * takes a live-stream slot (src/webhooks/live-streams.ts), so a stream over the caps is refused
 * with a plain 429 rather than an event stream carrying an error; a query counted so holds its
 * slot only until it is answered.
 */
export class GraphQLAdmission {
  constructor(private readonly options: GraphQLAdmissionOptions) {}

  /** Resolves with the request's live-stream ticket, if it has one; undefined, at once, for nearly every request. */
  admit(req: IncomingMessage, res: ServerResponse, principal: Principal, body: Buffer | undefined): Promise<LiveTicket | undefined> | undefined {
    const json = jsonToAdmit(body);
    if (Array.isArray(json) && json.length >= 2 && json.length <= this.options.limits.batchLimit) return this.admitBatch(req, res, principal, json);
    return this.liveTicket(req, res, principal, json);
  }

  private async admitBatch(req: IncomingMessage, res: ServerResponse, principal: Principal, operations: unknown[]): Promise<LiveTicket | undefined> {
    const { schema, limits, charge } = this.options;
    await charge(principal, res, operations.length - 1);
    const total = operations.reduce<number>((sum, item) => sum + itemCost(schema, item, limits.maxTokens), 0);
    if (total > limits.maxCost) {
      throw badInput(limits.exposeLimits ? `Batch cost limit of ${limits.maxCost} exceeded, found ${Math.ceil(total)}` : 'Batch cost limit exceeded');
    }
    return this.liveTicket(req, res, principal, operations);
  }

  private liveTicket(req: IncomingMessage, res: ServerResponse, principal: Principal, json: unknown): Promise<LiveTicket> | undefined {
    const fromUrl = req.url?.includes('?') ? new URL(req.url, 'http://localhost').searchParams.get('query') : null;
    if (fromUrl === null && json === undefined) return undefined;
    const documents = (Array.isArray(json) ? json : [json]).flatMap((item) => (isPlainObject(item) && typeof item.query === 'string' ? [item.query] : []));
    if (fromUrl !== null) documents.push(fromUrl);
    if (!documents.some((document) => hasSubscription(document, this.options.limits.maxTokens))) return undefined;
    return this.ticketFor(req, res, principal);
  }

  private async ticketFor(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<LiveTicket> {
    // The token was verified a moment ago (and is cached); this only learns when it expires.
    const authorization = req.headers.authorization;
    const token = typeof authorization === 'string' ? BEARER.exec(authorization.trim())?.[1] : undefined;
    const verified = token ? await this.options.tokens.verify(token) : null;
    if (!verified || verified.keyId !== principal.keyId) throw unauthenticated('Access token is invalid or expired');
    return this.options.streams.admit(principal.keyId, verified.expiresAt, res);
  }
}
