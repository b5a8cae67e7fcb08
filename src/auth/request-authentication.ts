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

  /** The caller, charged one request: at once when the credentials are remembered (see Authenticator), else a promise. */
  authenticate(req: IncomingMessage, res: ServerResponse): Principal | Promise<Principal> {
    const principal = this.authenticator.authenticate(req.headers);
    return principal instanceof Promise ? principal.then((known) => this.charge(known, res)) : this.charge(principal, res);
  }

  /** Charges the caller `points` more requests (the further operations of a GraphQL batch); throws RATE_LIMITED past the budget. */
  chargeMore(principal: Principal, res: ServerResponse, points: number): void | Promise<void> {
    return this.rateLimits.perKey.consume(principal.keyId, res, points);
  }

  private charge(principal: Principal, res: ServerResponse): Principal | Promise<Principal> {
    const context = requestContextOf(res);
    if (context) context.keyId = principal.keyId;
    const spent = this.rateLimits.perKey.consume(principal.keyId, res);
    return spent ? spent.then(() => principal) : principal;
  }
}
