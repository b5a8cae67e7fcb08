import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../shared/db/knex.js';
import { unauthenticated } from '../shared/errors.js';
import { findApiKeyById } from '../repositories/api-keys.js';
import { findApiKeyByPlaintext, principalOf } from './api-keys.js';
import type { Principal } from '../shared/principal.js';
import type { AccessToken, TokenIssuer } from './tokens.js';

export const SUBSCRIPTION_KEY_HEADER = 'external-gh-apim-sub-key';

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A token's Principal, or the one refusal for a token that is not valid now or whose key is unknown or revoked. */
function present(principal: Principal | null): Principal {
  if (!principal) throw unauthenticated('Access token is invalid or expired');
  return principal;
}

/**
 * Turns request headers into a Principal: the only place credentials are read. A key's state is re-read
 * from the database at most every `cacheSeconds`, which bounds how long a revoked key's tokens keep working.
 */
export class Authenticator {
  private readonly keyCache = new Map<number, { principal: Principal | null; until: number }>();
  private readonly refreshing = new Map<number, Promise<Principal | null>>();
  /** The accepted subscription keys' bytes, encoded once rather than on every request. */
  private readonly subscriptionKeyBytes: readonly Buffer[];

  constructor(
    private readonly db: Db,
    private readonly tokens: TokenIssuer,
    subscriptionKeys: readonly string[],
    private readonly cacheSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.subscriptionKeyBytes = subscriptionKeys.map((key) => Buffer.from(key));
  }

  /** Throws UNAUTHENTICATED unless the subscription key header carries an accepted value. */
  checkSubscriptionKey(headers: Headers): void {
    const value = header(headers, SUBSCRIPTION_KEY_HEADER);
    if (value === undefined || value === '') throw unauthenticated(`Missing ${SUBSCRIPTION_KEY_HEADER} header`);
    const presented = Buffer.from(value);
    if (!this.subscriptionKeyBytes.some((key) => key.length === presented.length && timingSafeEqual(key, presented))) {
      throw unauthenticated(`Invalid ${SUBSCRIPTION_KEY_HEADER} header`);
    }
  }

  /**
   * The caller's Principal: at once while its token and key are remembered (nearly every
   * request), a promise when either must be checked first. Refusals are thrown.
   */
  authenticate(headers: Headers): Principal | Promise<Principal> {
    this.checkSubscriptionKey(headers);
    const authorization = header(headers, 'authorization');
    if (!authorization) throw unauthenticated('Missing Authorization header');
    const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i.exec(authorization.trim());
    if (!match?.[1]) throw unauthenticated('Authorization header must be "Bearer <token>"');
    const verified = this.tokens.verify(match[1]);
    return verified instanceof Promise ? verified.then((checked) => this.principalOf(checked)) : this.principalOf(verified);
  }

  private principalOf(verified: { keyId: number } | null): Principal | Promise<Principal> {
    const principal = verified && this.principalForKey(verified.keyId);
    return principal instanceof Promise ? principal.then(present) : present(principal);
  }

  async requestToken(headers: Headers, apiKey: unknown): Promise<AccessToken> {
    this.checkSubscriptionKey(headers);
    if (typeof apiKey !== 'string' || apiKey === '' || apiKey.length > 512) throw unauthenticated('Unknown or revoked API key');
    const record = await findApiKeyByPlaintext(this.db, apiKey);
    if (!record || record.revokedAt !== null) throw unauthenticated('Unknown or revoked API key');
    this.remember(record.id, principalOf(record));
    return this.tokens.issue(record.id);
  }

  private principalForKey(keyId: number): Promise<Principal | null> | Principal | null {
    const cached = this.keyCache.get(keyId);
    if (cached && cached.until > this.now()) return cached.principal;
    // One read refreshes the key for every request that arrives while it is in flight.
    const pending = this.refreshing.get(keyId);
    if (pending) return pending;
    const refresh = findApiKeyById(this.db, keyId)
      .then((record) => this.remember(keyId, record && record.revokedAt === null ? principalOf(record) : null))
      .finally(() => this.refreshing.delete(keyId));
    this.refreshing.set(keyId, refresh);
    return refresh;
  }

  private remember(keyId: number, principal: Principal | null): Principal | null {
    this.keyCache.set(keyId, { principal, until: this.now() + this.cacheSeconds * 1000 });
    return principal;
  }
}
