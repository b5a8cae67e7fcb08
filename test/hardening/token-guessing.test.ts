import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyPrefix } from '../../src/auth/api-key-secret.js';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { onPostgres } from '../support/backend.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const TOKEN_PATH = '/api/external/token/request';

function tokenRequest(t: TestApp, apiKey: string, forwardedFor?: string) {
  return t.request('POST', TOKEN_PATH, { body: { apiKey }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
}

/** A wrong key that shares the stored prefix of `apiKey` (what a guesser who saw the prefix sends). */
function samePrefixGuess(apiKey: string): string {
  return apiKeyPrefix(apiKey) + randomBytes(30).toString('base64url');
}

describe('token endpoint without trusted proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The peer (127.0.0.1) is not in the list: X-Forwarded-For is the caller's word only.
    t = await startTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3', TRUSTED_PROXIES: '10.0.0.0/8' } });
  });
  afterAll(() => t.close());

  it('limits a spoofed X-Forwarded-For by the socket address', async () => {
    for (let i = 0; i < 3; i++) expectFailure(await tokenRequest(t, 'sgk_wrong-key', `203.0.113.${i + 1}`), 401);
    expectFailure(await tokenRequest(t, 'sgk_wrong-key', '203.0.113.99'), 429);
  });
});

describe('token endpoint behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3', TRUSTED_PROXIES: '127.0.0.0/8, 10.0.0.0/8' } });
  });
  afterAll(() => t.close());

  it('limits each forwarded client on its own budget', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await tokenRequest(t, 'sgk_wrong-key', '198.51.100.1');
      expectFailure(refused, 401);
      expect(refused.headers.get('ratelimit')).toMatch(new RegExp(`^"token";r=${2 - i};t=\\d+$`));
    }
    expectFailure(await tokenRequest(t, 'sgk_wrong-key', '198.51.100.1'), 429);
    // A prefix the client wrote itself does not move it to another budget: the proxy appended the real one.
    expectFailure(await tokenRequest(t, 'sgk_wrong-key', '192.0.2.200, 198.51.100.1'), 429);
    // Trusted hops to the right of the client are skipped.
    expectFailure(await tokenRequest(t, 'sgk_wrong-key', '198.51.100.1, 10.20.30.40'), 429);
    const other = await tokenRequest(t, 'sgk_wrong-key', '198.51.100.2');
    expectFailure(other, 401);
    expect(other.headers.get('ratelimit')).toMatch(/^"token";r=2;t=\d+$/);
  });

  it('lets a valid key from one client through while another client is locked out for guessing', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    for (let i = 0; i < 3; i++) expectFailure(await tokenRequest(t, samePrefixGuess(apiKey), '198.51.100.10'), 401);
    expectFailure(await tokenRequest(t, samePrefixGuess(apiKey), '198.51.100.10'), 429);
    const ok = await tokenRequest(t, apiKey, '198.51.100.11');
    expectEnvelope(ok, 200);
    expectEnvelope(await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token: ok.body.data.accessToken }), 200);
  });
});

// With RATE_LIMIT_STORE=postgres the counts live in the database, shared by instances.
const STORES = onPostgres() ? ['memory', 'postgres'] : ['memory'];

describe.each(STORES)('token endpoint failure budget per key prefix (TOKEN_PREFIX_FAILURES_PER_MINUTE, %s store)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { TOKEN_RATE_LIMIT_PER_MINUTE: '50', TOKEN_PREFIX_FAILURES_PER_MINUTE: '3', TRUSTED_PROXIES: '127.0.0.0/8', RATE_LIMIT_STORE: store },
    });
  });
  afterAll(() => t.close());

  it('stops guessing at one prefix spread over many addresses, and never refuses the valid key', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    // Three guessers, one wrong try each: all within the prefix's failure budget.
    for (let i = 1; i <= 3; i++) expectFailure(await tokenRequest(t, samePrefixGuess(apiKey), `203.0.113.${i}`), 401);
    // The budget is spent: a fourth address's wrong try at that prefix is refused…
    const refused = expectFailure(await tokenRequest(t, samePrefixGuess(apiKey), '203.0.113.4'), 429);
    expect(refused.errors[0]?.message).toMatch(/retry after \d+ s/);
    // …and that address is shut out of the token endpoint for the rest of its window, whatever it sends next.
    const shutOut = await tokenRequest(t, 'sgk_other-prefix-entirely', '203.0.113.4');
    expectFailure(shutOut, 429);
    expect(Number(shutOut.headers.get('retry-after'))).toBeGreaterThan(0);
    // The key holder, from any address, still gets a token; so does an address that guessed before.
    expectEnvelope(await tokenRequest(t, apiKey, '198.51.100.50'), 200);
    expectEnvelope(await tokenRequest(t, apiKey, '203.0.113.1'), 200);
    // Other prefixes keep their own budgets.
    expectFailure(await tokenRequest(t, 'sgk_unrelated-guess', '203.0.113.5'), 401);
  });

  it('does not count successes against the prefix', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    for (let i = 0; i < 5; i++) expectEnvelope(await tokenRequest(t, apiKey, '198.51.100.60'), 200);
    expectFailure(await tokenRequest(t, samePrefixGuess(apiKey), '198.51.100.61'), 401);
  });
});
