import { SignJWT, UnsecuredJWT } from 'jose';

/** The JWT_SECRET that test/support/test-app.ts configures. */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';
const ISSUER = 'shiftgate';
const AUDIENCE = 'shiftgate-external-api';

export interface ForgeOptions {
  keyId: number;
  secret?: string;
  alg?: 'HS256' | 'HS384' | 'HS512';
  /** Seconds since the epoch; `null` leaves the claim out. */
  exp?: number | null;
  iat?: number;
  issuer?: string;
  audience?: string;
}

/** A token built outside the gateway: with the defaults it is exactly what the gateway would issue. */
export async function forgeToken(options: ForgeOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const iat = options.iat ?? now;
  let jwt = new SignJWT({})
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(String(options.keyId))
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setJti(`forged-${Math.random().toString(36).slice(2)}`);
  const exp = options.exp === undefined ? iat + 600 : options.exp;
  if (exp !== null) jwt = jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

/** An `alg: none` token with otherwise valid claims for `keyId`. */
export function unsecuredToken(keyId: number): string {
  const now = Math.floor(Date.now() / 1000);
  return new UnsecuredJWT({})
    .setSubject(String(keyId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 600)
    .encode();
}
