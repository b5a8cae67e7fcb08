import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BlockList } from 'node:net';
import { apiKeyPrefix } from './api-key-secret.js';
import { apiError } from '../shared/errors.js';
import { addressBudgetKey, clientAddress } from './client-address.js';
import type { RateLimits } from './rate-limits.js';
import { requestContextOf } from '../shared/request-context.js';

/** Only a prefix in the form the gateway issues is logged: anything else may be part of some other secret. */
const LOGGABLE_PREFIX = /^sgk_[A-Za-z0-9_-]{6}$/;

/**
 * The token endpoint's two guards against key guessing. Per client address (behind TRUSTED_PROXIES,
 * the forwarded client), every request costs a point. Per presented key prefix, from all addresses
 * together, refused keys are counted: past TOKEN_PREFIX_FAILURES_PER_MINUTE a refused key at that
 * prefix is answered 429 and costs the address the rest of its budget, so a botnet gets one wrong try
 * per address per window at a hot prefix. The right key is checked first and always accepted, so
 * guessing at someone's prefix never locks its holder out.
 */
export class TokenAttempts {
  constructor(
    private readonly rateLimits: RateLimits,
    private readonly trustedProxies: BlockList,
  ) {}

  /** Charges the client one point; returns the client's budget key for keyRefused. */
  async admit(req: IncomingMessage, res: ServerResponse): Promise<string> {
    const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], this.trustedProxies);
    const client = addressBudgetKey(address);
    await this.rateLimits.tokenPerAddress.consume(client, res);
    return client;
  }

  /** Counts a refused key at its prefix; throws RATE_LIMITED when the prefix's failure budget is spent. */
  async keyRefused(apiKey: string, client: string, res: ServerResponse): Promise<void> {
    const prefix = apiKeyPrefix(apiKey);
    const failures = this.rateLimits.tokenPrefixFailures;
    const state = await failures.penalty(Buffer.from(prefix, 'utf8').toString('base64url'));
    const over = state.consumedPoints - failures.points;
    if (over <= 0) return;
    if (over === 1) {
      const keyPrefix = LOGGABLE_PREFIX.test(prefix) ? prefix : undefined;
      requestContextOf(res)?.log.warn({ keyPrefix, client }, 'token endpoint: failure budget of a key prefix spent');
    }
    const addressMs = await this.rateLimits.tokenPerAddress.exhaust(client, res);
    const retryAfter = Math.max(1, Math.ceil(Math.max(state.msBeforeNext, addressMs) / 1000));
    res.setHeader('retry-after', retryAfter);
    throw apiError('RATE_LIMITED', `Too many refused attempts with this API key; retry after ${retryAfter} s`);
  }
}
