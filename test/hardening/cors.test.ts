import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const LICENSES = '/api/external/staffs/1001/licenses';
const TOKEN = '/api/external/token/request';

function preflight(t: TestApp, path: string, origin: string, method = 'GET') {
  return t.request('OPTIONS', path, {
    subKey: null,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, external-gh-apim-sub-key' },
  });
}

function expectActualCors(headers: Headers, origin: string): void {
  expect(headers.get('access-control-allow-origin')).toBe(origin);
  const exposed = (headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
  expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'retry-after', 'ratelimit', 'ratelimit-policy', 'www-authenticate']));
  expect(headers.get('vary')).toMatch(/\bOrigin\b/);
}

function expectNoCors(headers: Headers): void {
  expect(headers.get('access-control-allow-origin')).toBeNull();
  expect(headers.get('access-control-allow-methods')).toBeNull();
  expect(headers.get('access-control-allow-headers')).toBeNull();
  expect(headers.get('vary')).toMatch(/\bOrigin\b/);
}

describe('CORS_ORIGINS parsing', () => {
  it('is empty when unset or blank, and keeps exact origins', () => {
    expect(loadConfig({}).corsOrigins).toBeUndefined();
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:3000' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it.each(['example.com', 'https://a.example.com/', 'https://a.example.com/app', 'ftp://a.example.com', 'https://A.example.com', 'https://a.example.com:443', '*,https://a.example.com', 'https://a.example.com?x=1'])(
    'refuses %s with one line naming CORS_ORIGINS',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/^CORS_ORIGINS: /);
    },
  );
});

describe('CORS with CORS_ORIGINS set', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: `${ALLOWED},http://localhost:5173` } });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it.each([LICENSES, TOKEN, '/graphql', '/openapi.json', '/api/no/such/route'])('answers a preflight from an allowed origin on %s with 204 before authentication', async (path) => {
    const res = await preflight(t, path, ALLOWED, 'POST');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect((res.headers.get('access-control-allow-methods') ?? '').split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']));
    expect((res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/)).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'external-gh-apim-sub-key', 'x-request-id', 'idempotency-key']),
    );
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('refuses a preflight from another origin with 403 and no CORS headers', async () => {
    const rest = await preflight(t, LICENSES, OTHER);
    expect(rest.status).toBe(403);
    expect(rest.body.status.code).toBe(403);
    expectNoCors(rest.headers);
    const graphql = await preflight(t, '/graphql', OTHER, 'POST');
    expect(graphql.status).toBe(403);
    expect(graphql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expectNoCors(graphql.headers);
  });

  it('keeps 405 with Allow for OPTIONS without Origin on a REST path', async () => {
    const res = await t.request('OPTIONS', LICENSES, { token });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('puts the CORS headers on a REST success for an allowed origin', async () => {
    const res = await t.request('GET', `${LICENSES}?pageSize=1`, { token, headers: { origin: ALLOWED } });
    expect(res.status).toBe(200);
    expectActualCors(res.headers, ALLOWED);
  });

  it('puts the CORS headers on REST errors for an allowed origin (401, 404, 405)', async () => {
    const unauthenticated = await t.request('GET', LICENSES, { headers: { origin: ALLOWED } });
    expect(unauthenticated.status).toBe(401);
    expectActualCors(unauthenticated.headers, ALLOWED);
    const missing = await t.request('GET', '/api/no/such/route', { token, headers: { origin: ALLOWED } });
    expect(missing.status).toBe(404);
    expectActualCors(missing.headers, ALLOWED);
    const method = await t.request('DELETE', LICENSES, { token, headers: { origin: ALLOWED } });
    expect(method.status).toBe(405);
    expectActualCors(method.headers, ALLOWED);
  });

  it('puts the CORS headers on the token endpoint, answered or refused', async () => {
    const refused = await t.request('POST', TOKEN, { body: { apiKey: 'sg_nope' }, headers: { origin: ALLOWED } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expectActualCors(refused.headers, ALLOWED);
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    const issued = await t.request('POST', TOKEN, { body: { apiKey }, headers: { origin: ALLOWED } });
    expect(issued.status).toBe(200);
    expectActualCors(issued.headers, ALLOWED);
  });

  it('puts the CORS headers on /graphql answers and errors', async () => {
    const ok = await t.request('POST', '/graphql', { token, body: { query: '{ __typename }' }, headers: { origin: ALLOWED } });
    expect(ok.status).toBe(200);
    expectActualCors(ok.headers, ALLOWED);
    const refused = await t.request('POST', '/graphql', { body: { query: '{ __typename }' }, headers: { origin: ALLOWED } });
    expect(refused.status).toBe(401);
    expectActualCors(refused.headers, ALLOWED);
  });

  it('gives another origin no Access-Control-Allow-Origin, but still Vary: Origin', async () => {
    for (const [method, path] of [
      ['GET', LICENSES],
      ['POST', '/graphql'],
    ] as const) {
      const res = await t.request(method, path, { token, ...(method === 'POST' ? { body: { query: '{ __typename }' } } : {}), headers: { origin: OTHER } });
      expect(res.status).toBe(200);
      expectNoCors(res.headers);
      expect(res.headers.get('access-control-expose-headers')).toBeNull();
    }
  });

  it('sets Vary: Origin on answers without an Origin, and leaves other paths alone', async () => {
    const api = await t.request('GET', LICENSES, { token });
    expect(api.headers.get('vary')).toMatch(/\bOrigin\b/);
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
    const health = await t.request('GET', '/healthz', { headers: { origin: ALLOWED } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS errors from rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: ALLOWED, RATE_LIMIT_PER_MINUTE: '1' } });
  });
  afterAll(() => t.close());

  it('lets a browser read a 429 and its Retry-After', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    await t.request('GET', LICENSES, { token, headers: { origin: ALLOWED } });
    const limited = await t.request('GET', LICENSES, { token, headers: { origin: ALLOWED } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expectActualCors(limited.headers, ALLOWED);
  });
});

describe('CORS with no CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('allows no origin at all', async () => {
    const pre = await preflight(t, LICENSES, ALLOWED);
    expect(pre.status).toBe(403);
    expectNoCors(pre.headers);
    const token = await t.token({ type: 'developer', companyId: 1 });
    const res = await t.request('GET', LICENSES, { token, headers: { origin: ALLOWED } });
    expect(res.status).toBe(200);
    expectNoCors(res.headers);
  });
});

describe('CORS_ORIGINS=*', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: '*' } });
  });
  afterAll(() => t.close());

  it('answers any origin with *', async () => {
    const pre = await preflight(t, '/graphql', OTHER, 'POST');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const res = await t.request('GET', LICENSES, { headers: { origin: OTHER } });
    expect(res.status).toBe(401);
    expectActualCors(res.headers, '*');
  });
});
