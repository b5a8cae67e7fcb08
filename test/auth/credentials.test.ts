import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { withoutWrites } from '../rest/http.js';
import { forgeToken, unsecuredToken } from './forge.js';

interface Endpoint {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  keyType: 'developer' | 'timesheet';
  success: number;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'license list', method: 'GET', path: '/api/external/staffs/1001/licenses', keyType: 'developer', success: 200 },
  { name: 'timesheet read', method: 'GET', path: '/api/external/timesheets/9001', keyType: 'timesheet', success: 200 },
  {
    name: 'subscription create',
    method: 'POST',
    path: '/api/webhook/subscriptions',
    body: { subscriberId: 301, uri: 'https://hooks.example.com/credentials' },
    keyType: 'developer',
    success: 201,
  },
  {
    name: 'subscription update',
    method: 'PUT',
    path: '/api/webhook/subscriptions/{sid}',
    body: { isActive: false },
    keyType: 'developer',
    success: 200,
  },
  {
    name: 'subscription list',
    method: 'GET',
    path: '/api/webhook/subscribers/301/subscriptions',
    keyType: 'developer',
    success: 200,
  },
];

/** How a request's credentials are broken: headers to send, given a valid token and key id. */
type Breakage = (valid: { token: string; keyId: number }) => Promise<{ subKey?: string | null; authorization?: string }>;

const BROKEN: [string, Breakage][] = [
  ['no subscription key header', async ({ token }) => ({ subKey: null, authorization: `Bearer ${token}` })],
  ['an empty subscription key', async ({ token }) => ({ subKey: '', authorization: `Bearer ${token}` })],
  ['a wrong subscription key', async ({ token }) => ({ subKey: `${SUB_KEY}x`, authorization: `Bearer ${token}` })],
  ['no Authorization header', async () => ({})],
  ['an empty Authorization header', async () => ({ authorization: '' })],
  ['"Bearer" without a token', async () => ({ authorization: 'Bearer' })],
  ['a Basic Authorization header', async () => ({ authorization: 'Basic dXNlcjpwYXNz' })],
  ['the bare token without "Bearer"', async ({ token }) => ({ authorization: token })],
  ['a garbage token', async () => ({ authorization: 'Bearer not.a.jwt' })],
  // Not the last character: its low bits are padding, so changing it may not change the bytes.
  ['a token with a changed signature', async ({ token }) => {
    const i = token.length - 10;
    return { authorization: `Bearer ${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}` };
  }],
  ['a token signed with another secret', async ({ keyId }) => ({
    authorization: `Bearer ${await forgeToken({ keyId, secret: 'another-secret-another-secret-another-secret' })}`,
  })],
  ['an alg: none token', async ({ keyId }) => ({ authorization: `Bearer ${unsecuredToken(keyId)}` })],
  ['an HS512 token with the right secret', async ({ keyId }) => ({ authorization: `Bearer ${await forgeToken({ keyId, alg: 'HS512' })}` })],
  ['an HS256 token without exp', async ({ keyId }) => ({ authorization: `Bearer ${await forgeToken({ keyId, exp: null })}` })],
  ['an expired token', async ({ keyId }) => {
    const iat = Math.floor(Date.now() / 1000) - 7200;
    return { authorization: `Bearer ${await forgeToken({ keyId, iat, exp: iat + 3600 })}` };
  }],
  ['a token for a key that does not exist', async () => ({ authorization: `Bearer ${await forgeToken({ keyId: 987654 })}` })],
];

describe('credentials on every endpoint', () => {
  let t: TestApp;
  const valid: Record<'developer' | 'timesheet', { token: string; keyId: number }> = {} as never;
  let subscriptionId: number;

  beforeAll(async () => {
    t = await startTestApp();
    for (const type of ['developer', 'timesheet'] as const) {
      const { id, apiKey } = await t.key({ type, companyId: 1 });
      const res = await t.request('POST', '/api/external/token/request', { body: { apiKey } });
      valid[type] = { token: res.body.data.accessToken, keyId: id };
    }
    const created = await t.request('POST', '/api/webhook/subscriptions', {
      token: valid.developer.token,
      body: { subscriberId: 301, uri: 'https://hooks.example.com/credentials-target' },
    });
    subscriptionId = expectEnvelope(created, 201).data.id;
  });
  afterAll(() => t.close());

  function send(endpoint: Endpoint, headers: { subKey?: string | null; authorization?: string }) {
    const extra: Record<string, string> = {};
    if (headers.authorization !== undefined) extra.authorization = headers.authorization;
    return t.request(endpoint.method, endpoint.path.replace('{sid}', String(subscriptionId)), {
      body: endpoint.body,
      headers: extra,
      subKey: headers.subKey === undefined ? SUB_KEY : headers.subKey,
    });
  }

  describe.each(ENDPOINTS)('$name', (endpoint) => {
    it.each(BROKEN)('refuses %s with 401 and writes nothing', async (_what, breakage) => {
      const headers = await breakage(valid[endpoint.keyType]);
      const res = await withoutWrites(t, () => send(endpoint, headers));
      expectFailure(res, 401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('refuses the other key type with 403 and writes nothing', async () => {
      const other = endpoint.keyType === 'developer' ? valid.timesheet : valid.developer;
      const res = await withoutWrites(t, () => send(endpoint, { authorization: `Bearer ${other.token}` }));
      expectFailure(res, 403);
    });

    it('accepts an issued token, and a token built like one with the right secret (control)', async () => {
      // The forged variants above differ from this one in a single property each.
      const { keyId, token } = valid[endpoint.keyType];
      if (endpoint.method === 'POST') await t.app.db('subscriptions').where({ uri: 'https://hooks.example.com/credentials' }).delete();
      expectEnvelope(await send(endpoint, { authorization: `Bearer ${token}` }), endpoint.success);
      if (endpoint.method === 'POST') await t.app.db('subscriptions').where({ uri: 'https://hooks.example.com/credentials' }).delete();
      const forged = await forgeToken({ keyId });
      expectEnvelope(await send(endpoint, { authorization: `Bearer ${forged}` }), endpoint.success);
    });
  });

  it('accepts a lower-case bearer scheme', async () => {
    const res = await t.request('GET', '/api/external/timesheets/9001', {
      headers: { authorization: `bearer ${valid.timesheet.token}` },
    });
    expectEnvelope(res, 200);
  });
});
