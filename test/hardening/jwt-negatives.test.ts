import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TEST_JWT_SECRET } from '../auth/forge.js';

/**
 * The JWT negatives test/auth/credentials.test.ts does not already cover: not-yet-valid tokens,
 * HS/RS algorithm confusion and a tampered payload. Each is 401 on REST and on GraphQL.
 */
const claims = (keyId: number) =>
  new SignJWT({}).setSubject(String(keyId)).setIssuer('shiftgate').setAudience('shiftgate-external-api').setJti(`neg-${Math.random()}`);

describe('JWT negatives', () => {
  let t: TestApp;
  let keyId: number;
  let otherKeyId: number;
  let valid: string;
  const now = () => Math.floor(Date.now() / 1000);
  beforeAll(async () => {
    t = await startTestApp();
    const key = await t.key({ type: 'developer', companyId: 1 });
    keyId = key.id;
    otherKeyId = (await t.key({ type: 'developer', companyId: 2 })).id;
    valid = (await t.request('POST', '/api/external/token/request', { body: { apiKey: key.apiKey } })).body.data.accessToken;
  });
  afterAll(() => t.close());

  const secret = new TextEncoder().encode(TEST_JWT_SECRET);
  const cases: [string, () => Promise<string>][] = [
    ['nbf in the future', () => claims(keyId).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now()).setNotBefore(now() + 600).setExpirationTime(now() + 1200).sign(secret)],
    ['iat in the future', () => claims(keyId).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now() + 600).setExpirationTime(now() + 1200).sign(secret)],
    ['an RS256 token (HS/RS confusion)', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      return claims(keyId).setProtectedHeader({ alg: 'RS256' }).setIssuedAt(now()).setExpirationTime(now() + 600).sign(privateKey);
    }],
    ['an HS256 token keyed with an RSA public key PEM', async () => {
      const { publicKey } = await generateKeyPair('RS256', { extractable: true });
      const pem = new TextEncoder().encode(await exportSPKI(publicKey));
      return claims(keyId).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now()).setExpirationTime(now() + 600).sign(pem);
    }],
    ['a tampered payload (sub moved to another key, signature kept)', async () => {
      const [header, payload, signature] = valid.split('.');
      const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
      decoded.sub = String(otherKeyId);
      return `${header}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    }],
  ];

  it('accepts the issued token (control)', async () => {
    expectEnvelope(await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token: valid }), 200);
  });

  it.each(cases)('refuses %s with 401 on REST and GraphQL', async (_what, make) => {
    const token = await make();
    expectFailure(await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token }), 401);
    const gql = await t.graphql(token, '{ subscriber(subscriberId: 301) { name } }');
    expect(gql.status).toBe(401);
    expect(gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
