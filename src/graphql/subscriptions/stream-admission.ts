import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, parse } from 'graphql';
import type { Principal } from '../../shared/principal.js';
import type { TokenIssuer } from '../../auth/tokens.js';
import { unauthenticated } from '../../shared/errors.js';
import type { LiveStreams, LiveTicket } from '../../webhooks/live-streams.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

/** The needles as bytes, so a search does not encode them on every request. */
const SUBSCRIPTION_BYTES = Buffer.from('subscription');
const ESCAPE_BYTES = Buffer.from('\\u');

/**
 * The documents a /graphql request carries: `query` of the URL and of the JSON body (one or a
 * batch). A JSON string spells a letter either as itself or as a `\u` escape (its other escapes
 * stand for punctuation and white space), so a body with neither cannot mention `subscription`,
 * and is not parsed here.
 */
function documentsOf(req: IncomingMessage, body: Buffer | undefined): string[] {
  const fromUrl = req.url?.includes('?') ? new URL(req.url, 'http://localhost').searchParams.get('query') : null;
  const documents = fromUrl === null ? [] : [fromUrl];
  if (!body?.includes(SUBSCRIPTION_BYTES) && !body?.includes(ESCAPE_BYTES)) return documents;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return documents;
  }
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    if (isPlainObject(item) && typeof item.query === 'string') documents.push(item.query);
  }
  return documents;
}

function hasSubscription(document: string, maxTokens: number): boolean {
  // Cheap first: a subscription operation needs the keyword.
  if (!document.includes('subscription')) return false;
  try {
    return parse(document, { noLocation: true, maxTokens }).definitions.some(
      (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription',
    );
  } catch {
    return false; // yoga answers the syntax error itself
  }
}

const BEARER = /^Bearer[ ]+(\S+)$/i;

/**
 * Decides, before yoga sees a /graphql request, whether it opens a live stream, and if so takes
 * a slot for it (src/webhooks/live-streams.ts), so a stream over the caps is refused with a plain
 * 429 rather than an event stream carrying an error. Any subscription operation in the request
 * counts, whichever is selected; a query counted so holds its slot only until it is answered.
 */
export class StreamAdmission {
  constructor(
    private readonly streams: LiveStreams,
    private readonly tokens: TokenIssuer,
    private readonly maxTokens: number,
  ) {}

  /** A ticket for an authenticated request that asks for a subscription; undefined, at once, for the others (nearly all). */
  admit(req: IncomingMessage, res: ServerResponse, principal: Principal, body: Buffer | undefined): Promise<LiveTicket> | undefined {
    if (!documentsOf(req, body).some((document) => hasSubscription(document, this.maxTokens))) return undefined;
    return this.ticketFor(req, res, principal);
  }

  private async ticketFor(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<LiveTicket> {
    // The token was verified a moment ago (and is cached); this only learns when it expires.
    const authorization = req.headers.authorization;
    const token = typeof authorization === 'string' ? BEARER.exec(authorization.trim())?.[1] : undefined;
    const verified = token ? await this.tokens.verify(token) : null;
    if (!verified || verified.keyId !== principal.keyId) throw unauthenticated('Access token is invalid or expired');
    return this.streams.admit(principal.keyId, verified.expiresAt, res);
  }
}
