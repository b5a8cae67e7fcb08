import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const ALGORITHM = 'HS256';
const ISSUER = 'shiftgate';
const AUDIENCE = 'shiftgate-external-api';

export interface AccessToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  expiresAt: string;
}

/** Issues and verifies access tokens. The algorithm is pinned and `exp` is required. */
export class TokenIssuer {
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(keyId: number): Promise<AccessToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + this.ttlSeconds;
    const accessToken = await new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(String(keyId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(this.secret);
    return {
      accessToken,
      tokenType: 'Bearer',
      expiresIn: this.ttlSeconds,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    };
  }

  /** The API key id the token was issued for, or null when the token is not valid now. */
  async verify(token: string): Promise<{ keyId: number; expiresAt: number } | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
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
