import { createHmac } from 'node:crypto';
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

  /** The same bytes in another base64url spelling: a set padding bit in the last character. */
  const respellLastChar = (segment: string): string => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = segment[segment.length - 1]!;
    const respelled = segment.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(segment, 'base64url'));
    return respelled;
  };
  /** Signs header and payload exactly as given, so a padded segment still carries a correct signature. */
  const signRaw = (header: string, payload: string) =>
    `${header}.${payload}.${createHmac('sha256', TEST_JWT_SECRET).update(`${header}.${payload}`).digest('base64url')}`;
  const nonCanonical: [string, () => string][] = [
    ['the issued token with "=" padding on its signature', () => `${valid}=`],
    ['the issued token with unused signature bits set', () => {
      const [header, payload, signature] = valid.split('.');
      return `${header}.${payload}.${respellLastChar(signature!)}`;
    }],
    ['a correctly signed token with a padded payload', () => {
      const [header, payload] = valid.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
      let encoded = payload!;
      for (let pad = 0; encoded.length % 4 === 0; pad++) encoded = Buffer.from(JSON.stringify({ ...claims, x: 'x'.repeat(pad) })).toString('base64url');
      return signRaw(header!, encoded + '='.repeat(4 - (encoded.length % 4)));
    }],
    ['a correctly signed token with a padded header', () => {
      const [, payload] = valid.split('.');
      let header = '';
      for (let pad = 0; header.length % 4 === 0; pad++) header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', x: 'x'.repeat(pad) })).toString('base64url');
      return signRaw(`${header}${'='.repeat(4 - (header.length % 4))}`, payload!);
    }],
  ];

  it('accepts a correctly signed token built outside the gateway (control for the spellings below)', async () => {
    const [header, payload] = valid.split('.');
    expectEnvelope(await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token: signRaw(header!, payload!) }), 200);
  });

  it.each(nonCanonical)('refuses %s with 401 on REST and GraphQL', async (_what, make) => {
    const token = make();
    const rest = await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token });
    expectFailure(rest, 401);
    const gql = await t.graphql(token, '{ subscriber(subscriberId: 301) { name } }');
    expect(gql.status).toBe(401);
  });

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
