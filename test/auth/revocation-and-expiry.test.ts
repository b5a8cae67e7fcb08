import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/repositories/api-keys.js';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { appPerTest, startTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

const START = Date.parse('2026-02-10T12:00:00.000Z');
const LICENSES = '/api/external/staffs/1001/licenses?pageSize=1';

const startApp = appPerTest();

/** A test app whose clock only moves when the test says so; closed after its test. */
async function appWithClock(env: Record<string, string> = {}) {
  let clock = START;
  const options: TestAppOptions = { now: () => clock, env };
  const t = await startApp(options);
  return {
    t,
    advance(seconds: number) {
      clock += seconds * 1000;
    },
  };
}

describe('token expiry and key revocation', () => {

  async function developerToken(app: TestApp) {
    const { id, apiKey } = await app.key({ type: 'developer', companyId: 1 });
    const res = await app.request('POST', '/api/external/token/request', { body: { apiKey } });
    const env = expectEnvelope(res, 200);
    return { keyId: id, apiKey, token: env.data.accessToken as string, expiresIn: env.data.expiresIn as number };
  }

  it('accepts a token until it expires and refuses it afterwards', async () => {
    const clocked = await appWithClock();
    const { t } = clocked;
    const { token, expiresIn } = await developerToken(t);
    expect(expiresIn).toBe(3600);
    clocked.advance(3599);
    expectEnvelope(await t.request('GET', LICENSES, { token }), 200);
    clocked.advance(2);
    expectFailure(await t.request('GET', LICENSES, { token }), 401);
  });

  it('with the default 30 s key cache, a revoked key works inside the window and stops after it', async () => {
    const clocked = await appWithClock();
    const { t } = clocked;
    const { keyId, apiKey, token } = await developerToken(t);
    expectEnvelope(await t.request('GET', LICENSES, { token }), 200);
    expect(await revokeApiKey(t.app.db, keyId)).toBe(true);
    // New tokens are refused at once.
    expectFailure(await t.request('POST', '/api/external/token/request', { body: { apiKey } }), 401);
    // The existing token rides on the cached key state for at most the cache window …
    clocked.advance(20);
    expectEnvelope(await t.request('GET', LICENSES, { token }), 200);
    // … and is refused once the window has passed, well within 60 s of the revocation.
    clocked.advance(11);
    expectFailure(await t.request('GET', LICENSES, { token }), 401);
    clocked.advance(3600 - 31 - 10);
    expectFailure(await t.request('GET', LICENSES, { token }), 401);
  });

  it('honours API_KEY_CACHE_SECONDS', async () => {
    const clocked = await appWithClock({ API_KEY_CACHE_SECONDS: '5' });
    const { t } = clocked;
    const { keyId, token } = await developerToken(t);
    expect(await revokeApiKey(t.app.db, keyId)).toBe(true);
    clocked.advance(4);
    expectEnvelope(await t.request('GET', LICENSES, { token }), 200);
    clocked.advance(2);
    expectFailure(await t.request('GET', LICENSES, { token }), 401);
  });

  it('with API_KEY_CACHE_SECONDS=0 a revoked key’s token fails at once', async () => {
    const clocked = await appWithClock({ API_KEY_CACHE_SECONDS: '0' });
    const { t } = clocked;
    const { keyId, token } = await developerToken(t);
    expectEnvelope(await t.request('GET', LICENSES, { token }), 200);
    expect(await revokeApiKey(t.app.db, keyId)).toBe(true);
    expectFailure(await t.request('GET', LICENSES, { token }), 401);
    expectFailure(
      await t.request('POST', '/api/webhook/subscriptions', {
        token,
        body: { subscriberId: 301, uri: 'https://hooks.example.com/revoked' },
      }),
      401,
    );
    expect(await t.app.db('subscriptions').select()).toEqual([]);
  });

  it('revoking one key leaves the other keys’ tokens working', async () => {
    const clocked = await appWithClock({ API_KEY_CACHE_SECONDS: '0' });
    const { t } = clocked;
    const revoked = await developerToken(t);
    const kept = await developerToken(t);
    await revokeApiKey(t.app.db, revoked.keyId);
    expectFailure(await t.request('GET', LICENSES, { token: revoked.token }), 401);
    expectEnvelope(await t.request('GET', LICENSES, { token: kept.token }), 200);
  });

  it('refuses API_KEY_CACHE_SECONDS above 60, so revocation can never take longer than a minute', async () => {
    await expect(startTestApp({ env: { API_KEY_CACHE_SECONDS: '61' } })).rejects.toThrow(/API_KEY_CACHE_SECONDS/);
  });
});
