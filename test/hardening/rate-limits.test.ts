import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('per-key rate limit (RATE_LIMIT_PER_MINUTE)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
  });
  afterAll(() => t.close());

  it('counts REST and GraphQL against one budget, with RateLimit headers, then answers 429', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const first = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token });
    expectEnvelope(first, 200);
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=4;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"default";r=3;t=\d+$/);
    expect((await t.graphql(token, '{ __typename }')).status).toBe(200);
    expectEnvelope(await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token }), 200);
    expect((await t.graphql(token, '{ __typename }')).status).toBe(200);

    const rest = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token });
    expectFailure(rest, 429);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(rest.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    expect(rest.headers.get('ratelimit-policy')).toBe('"default";q=4;w=60');

    const gql = await t.request('POST', '/graphql', { token, body: { query: '{ __typename }' } });
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('gives every key its own budget', async () => {
    const other = await t.token({ type: 'developer', companyId: 1 });
    expectEnvelope(await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=1', { token: other }), 200);
  });

  it('does not charge unauthenticated requests to a key (they are 401)', async () => {
    expectFailure(await t.request('GET', '/api/external/staffs/1001/licenses', { token: 'nope' }), 401);
  });
});

describe('token endpoint rate limit (TOKEN_RATE_LIMIT_PER_MINUTE)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '12' } });
  });
  afterAll(() => t.close());

  it('slows repeated bad keys: a guesser gets TOKEN_RATE_LIMIT_PER_MINUTE tries, then 429 with Retry-After', async () => {
    const bad = () => t.request('POST', '/api/external/token/request', { body: { apiKey: 'sgk_wrong' } });
    for (let i = 0; i < 12; i++) {
      const refused = await bad();
      expectFailure(refused, 401);
      // Every request costs one point, refused or not: the header counts down exactly.
      expect(refused.headers.get('ratelimit')).toMatch(new RegExp(`^"token";r=${11 - i};t=\\d+$`));
    }
    const limited = await bad();
    expectFailure(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-policy')).toBe('"token";q=12;w=60');
  });
});

describe('token endpoint budget with good keys', () => {
  it('allows TOKEN_RATE_LIMIT_PER_MINUTE requests from one address, then 429', async () => {
    const t = await startTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
      for (let i = 0; i < 3; i++) {
        const ok = await t.request('POST', '/api/external/token/request', { body: { apiKey } });
        expectEnvelope(ok, 200);
        expect(ok.headers.get('ratelimit')).toMatch(new RegExp(`^"token";r=${2 - i};t=\\d+$`));
      }
      expectFailure(await t.request('POST', '/api/external/token/request', { body: { apiKey } }), 429);
    } finally {
      await t.close();
    }
  });
});
