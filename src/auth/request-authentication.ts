import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../shared/principal.js';
import { requestContextOf } from '../shared/request-context.js';
import type { Authenticator } from './authenticator.js';
import type { RateLimits } from './rate-limits.js';

/**
 * Authentication and the per-key budget, in this order, for both APIs: the one gate between
 * the headers and any route or resolver. The key id is noted for the log line.
 */
export class RequestAuthentication {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly rateLimits: RateLimits,
  ) {}

  /** The caller, charged one request. */
  async authenticate(req: IncomingMessage, res: ServerResponse): Promise<Principal> {
    const principal = await this.authenticator.authenticate(req.headers);
    const context = requestContextOf(res);
    if (context) context.keyId = principal.keyId;
    await this.rateLimits.perKey.consume(principal.keyId, res);
    return principal;
  }

  /** Charges the caller `points` more requests (the further operations of a GraphQL batch); throws RATE_LIMITED past the budget. */
  chargeMore(principal: Principal, res: ServerResponse, points: number): Promise<void> {
    return this.rateLimits.perKey.consume(principal.keyId, res, points);
  }
}
