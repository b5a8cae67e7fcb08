import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { setBounded } from '../shared/bounded-map.js';

const ALGORITHM = 'HS256';
const ISSUER = 'shiftgate';
const AUDIENCE = 'shiftgate-external-api';

export interface AccessToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  expiresAt: string;
}

/** A token's API key and when it expires (ms). */
type VerifiedToken = { keyId: number; expiresAt: number };

/**
 * Three base64url segments, each spelled the one way the encoder spells its bytes: no padding, no
 * stray bits in the last character. The decoder forgives both, which would give one token several
 * spellings (each a different cache entry, log value or revocation-list key).
 */
function isCanonicalCompactJws(token: string): boolean {
  const segments = token.split('.');
  return segments.length === 3 && segments.every((segment) => /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment);
}

/** Enough for every live token of a busy instance; past it the oldest entry is dropped. */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Issues and verifies access tokens (the algorithm pinned, `exp` required). A token that verified
 * once is remembered until it expires, so steady traffic pays for the signature check once per
 * token; revocation does not depend on this cache (the Authenticator re-reads keys on its own schedule).
 */
export class TokenIssuer {
  private readonly key: KeyObject;
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    secret: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createSecretKey(Buffer.from(secret));
  }

  async issue(keyId: number): Promise<AccessToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const claims = { sub: String(keyId), iss: ISSUER, aud: AUDIENCE, iat: issuedAt, nbf: issuedAt, exp: expiresAt, jti: randomUUID() };
    const accessToken = await new SignJWT(claims).setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' }).sign(this.key);
    return { accessToken, tokenType: 'Bearer', expiresIn: this.ttlSeconds, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /**
   * The API key id the token was issued for, or null when the token is not valid now. A token
   * verified before is answered at once; only a new one waits for its signature check.
   */
  verify(token: string): VerifiedToken | null | Promise<VerifiedToken | null> {
    // A remembered token was canonical when it was stored, and the lookup is by the exact string,
    // so a hit needs no second spelling check (which splits and decodes the token).
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > this.now()) return known;
      this.verified.delete(token);
      return null;
    }
    if (!isCanonicalCompactJws(token)) return null;
    return this.verifySignature(token).then((checked) => {
      if (checked) setBounded(this.verified, token, checked, VERIFIED_CACHE_SIZE);
      return checked;
    });
  }

  private async verifySignature(token: string): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: new Date(this.now()),
      });
      const keyId = Number(payload.sub);
      if (!Number.isSafeInteger(keyId) || keyId <= 0 || typeof payload.exp !== 'number') return null;
      // jose checks nbf but not iat: a token "issued" in the future was not issued by us. A minute
      // of slack covers clock skew between instances sharing the secret.
      if (typeof payload.iat !== 'number' || payload.iat * 1000 > this.now() + 60_000) return null;
      return { keyId, expiresAt: payload.exp * 1000 };
    } catch {
      return null;
    }
  }
}
