import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/repositories/api-keys.js';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest } from '../rest/http.js';

const TOKEN_PATH = '/api/external/token/request';
const NOW = Date.parse('2026-05-04T03:02:01.000Z');

describe('POST /api/external/token/request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: () => NOW });
  });
  afterAll(() => t.close());

  const requestToken = (body: unknown, options: { subKey?: string | null } = {}) =>
    t.request('POST', TOKEN_PATH, { body, ...options });

  it('exchanges an API key for a Bearer token', async () => {
    const { id, apiKey } = await t.key({ type: 'developer', companyId: 1 });
    const env = expectEnvelope(await requestToken({ apiKey }), 200);
    expect(env.count).toBe(1);
    expect(Object.keys(env.data).sort()).toEqual(['accessToken', 'expiresAt', 'expiresIn', 'tokenType']);
    expect(env.data).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
      expiresAt: new Date(NOW + 3600 * 1000).toISOString(),
    });
    expect(decodeProtectedHeader(env.data.accessToken).alg).toBe('HS256');
    const claims = decodeJwt(env.data.accessToken);
    expect(claims.sub).toBe(String(id));
    expect(claims.exp).toBe(NOW / 1000 + 3600);

    const use = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token: env.data.accessToken });
    expectEnvelope(use, 200);
  });

  it('issues tokens for timesheet keys too', async () => {
    const { apiKey } = await t.key({ type: 'timesheet', companyId: 1 });
    const env = expectEnvelope(await requestToken({ apiKey }), 200);
    expectEnvelope(await t.request('GET', '/api/external/timesheets/9001', { token: env.data.accessToken }), 200);
  });

  it('refuses an unknown API key with 401 and a Bearer challenge', async () => {
    const res = await requestToken({ apiKey: 'sgk_not-a-key-that-exists' });
    expectFailure(res, 401);
    // HTTP wants a challenge on every 401; the credential this API takes is the Bearer token issued here.
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    const noSubKey = await requestToken({ apiKey: 'sgk_not-a-key-that-exists' }, { subKey: null });
    expectFailure(noSubKey, 401);
    expect(noSubKey.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a revoked API key with 401', async () => {
    const { id, apiKey } = await t.key({ type: 'developer', companyId: 1 });
    expectEnvelope(await requestToken({ apiKey }), 200);
    expect(await revokeApiKey(t.app.db, id)).toBe(true);
    expectFailure(await requestToken({ apiKey }), 401);
  });

  it('requires the subscription key', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    expectFailure(await requestToken({ apiKey }, { subKey: null }), 401);
    expectFailure(await requestToken({ apiKey }, { subKey: '' }), 401);
    expectFailure(await requestToken({ apiKey }, { subKey: 'wrong-subscription-key' }), 401);
  });

  it.each([
    ['no apiKey', {}],
    ['an empty apiKey', { apiKey: '' }],
    ['a numeric apiKey', { apiKey: 123 }],
    ['an unknown field', { apiKey: 'sgk_x', keyType: 'developer' }],
  ])('refuses a body with %s with 400', async (_what, body) => {
    expectFailure(await requestToken(body), 400);
  });

  it('refuses bodies that are not JSON objects', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    const json = { 'content-type': 'application/json' };
    expectFailure(await rawRequest(t, 'POST', TOKEN_PATH, { body: JSON.stringify({ apiKey }) }), 415);
    expectFailure(
      await rawRequest(t, 'POST', TOKEN_PATH, { body: JSON.stringify({ apiKey }), headers: { 'content-type': 'text/plain' } }),
      415,
    );
    expectFailure(await rawRequest(t, 'POST', TOKEN_PATH, { body: '{"apiKey": ', headers: json }), 400);
    expectFailure(await rawRequest(t, 'POST', TOKEN_PATH, { body: JSON.stringify([apiKey]), headers: json }), 400);
    expectFailure(await rawRequest(t, 'POST', TOKEN_PATH, { body: JSON.stringify(apiKey), headers: json }), 400);
    expectFailure(await rawRequest(t, 'POST', TOKEN_PATH, { body: 'null', headers: json }), 400);
  });
});

describe('token lifetime configuration', () => {
  it('honours TOKEN_TTL_SECONDS', async () => {
    const t = await startTestApp({ now: () => NOW, env: { TOKEN_TTL_SECONDS: '120' } });
    try {
      const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
      const env = expectEnvelope(await t.request('POST', TOKEN_PATH, { body: { apiKey } }), 200);
      expect(env.data.expiresIn).toBe(120);
      expect(env.data.expiresAt).toBe(new Date(NOW + 120_000).toISOString());
    } finally {
      await t.close();
    }
  });

  it('accepts each of several SUBSCRIPTION_KEYS', async () => {
    const t = await startTestApp({ env: { SUBSCRIPTION_KEYS: 'region-one, region-two' } });
    try {
      const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
      for (const subKey of ['region-one', 'region-two']) {
        const env = expectEnvelope(await t.request('POST', TOKEN_PATH, { body: { apiKey }, subKey }), 200);
        const use = await t.request('GET', '/api/webhook/subscribers/301/subscriptions', { token: env.data.accessToken, subKey });
        expectEnvelope(use, 200);
      }
      expectFailure(await t.request('POST', TOKEN_PATH, { body: { apiKey } }), 401);
      expectFailure(await t.request('POST', TOKEN_PATH, { body: { apiKey }, subKey: 'region-one, region-two' }), 401);
    } finally {
      await t.close();
    }
  });
});
