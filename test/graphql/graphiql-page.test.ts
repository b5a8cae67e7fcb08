import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEYS } from '../../src/cli/demo-data.js';
import { DEMO_SUBSCRIPTION_KEY } from '../../src/config.js';
import { GRAPHIQL_ASSET_PATHS } from '../../src/server/graphiql/assets.js';
import { graphiqlPage } from '../../src/server/graphiql/page.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { startServe } from '../support/cli-process.js';
import { expectFailure } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** The settings block sign-in.js reads. */
function settingsOf(html: string): { subscriptionKey: string | null; demoApiKey: string | null; workers: Record<string, string> } {
  const match = /<script type="application\/json" id="shiftgate-graphiql">(.*?)<\/script>/s.exec(html);
  expect(match, 'the page carries its settings').not.toBeNull();
  return JSON.parse(match![1]!);
}

/** Every src= and href= of the page, and the worker URLs of its settings. */
function assetUrlsOf(html: string): string[] {
  const attributes = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  return [...attributes, ...Object.values(settingsOf(html).workers)];
}

async function getPage(baseUrl: string): Promise<Response> {
  return fetch(`${baseUrl}/graphql`, { headers: { accept: 'text/html' } });
}

describe('the GraphiQL page on a server that is not a demo', () => {
  let t: TestApp;
  let apiKey: string;
  let html: string;
  let res: Response;

  beforeAll(async () => {
    t = await startTestApp();
    apiKey = (await t.key({ type: 'developer', companyId: 1 })).apiKey;
    res = await getPage(t.baseUrl);
    html = await res.text();
  });
  afterAll(() => t.close());

  it('is HTML with a policy that keeps the browser on this server', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toMatch(/https?:|\*/);
  });

  it('writes no secret into the HTML: no subscription key, API key or signing secret', () => {
    expect(html).not.toContain(SUB_KEY);
    expect(html).not.toContain(apiKey);
    expect(html).not.toContain(JWT_SECRET);
    expect(html).not.toContain(DEMO_API_KEYS.developer);
    expect(settingsOf(html)).toMatchObject({ subscriptionKey: null, demoApiKey: null });
  });

  it('has the sign-in form and links to /docs', () => {
    expect(html).toMatch(/<form id="sign-in"/);
    expect(html).toMatch(/<input name="subscriptionKey" type="password"/);
    expect(html).toMatch(/<input name="apiKey" type="password"/);
    expect(html).toContain('<a href="/docs">');
  });

  it('loads every asset from this server, and each one is there with its type', async () => {
    const urls = assetUrlsOf(html).filter((url) => url !== '/docs');
    expect([...urls].sort()).toEqual([...GRAPHIQL_ASSET_PATHS].sort());
    for (const url of urls) {
      expect(url, 'same-origin path').toMatch(/^\/graphiql\/[a-z.-]+$/);
      const asset = await fetch(t.baseUrl + url);
      expect(asset.status, url).toBe(200);
      const type = url.endsWith('.js') ? 'text/javascript' : url.endsWith('.css') ? 'text/css' : 'image/x-icon';
      expect(asset.headers.get('content-type'), url).toContain(type);
      expect((await asset.arrayBuffer()).byteLength, url).toBeGreaterThan(100);
    }
  });

  it('answers 304 to a request that already holds the asset', async () => {
    const first = await fetch(`${t.baseUrl}/graphiql/sign-in.js`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${t.baseUrl}/graphiql/sign-in.js`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers an unknown asset 404 and a POST to an asset 405, as envelopes', async () => {
    expectFailure(await t.request('GET', '/graphiql/nothing.js', { subKey: null }), 404);
    // Names an object has by inheritance are not assets either.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expectFailure(await t.request('GET', `/graphiql/${name}`, { subKey: null }), 404);
    }
    const post = await t.request('POST', '/graphiql/sign-in.js', { subKey: null, body: {} });
    expectFailure(post, 405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('shows a demo API key only once the server offers one', async () => {
    t.app.offerDemoKeyOnGraphiQL(DEMO_API_KEYS.developer);
    const offered = settingsOf(await (await getPage(t.baseUrl)).text());
    expect(offered.demoApiKey).toBe(DEMO_API_KEYS.developer);
    expect(offered.subscriptionKey).toBeNull();
  });
});

describe('the GraphiQL page from `shiftgate serve`', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it('--demo: the page holds the public demo subscription key and the demo developer key', async () => {
    const served = await startServe(['--demo'], database.env);
    try {
      const settings = settingsOf(await (await getPage(`http://127.0.0.1:${served.port}`)).text());
      expect(settings.subscriptionKey).toBe(DEMO_SUBSCRIPTION_KEY);
      expect(settings.demoApiKey).toBe(DEMO_API_KEYS.developer);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('without --demo on the same database, and with real subscription keys, it holds neither', async () => {
    await (await startServe(['--demo'], database.env)).stop();
    const served = await startServe([], { ...database.env, SUBSCRIPTION_KEYS: 'real-subscription-key' });
    try {
      const html = await (await getPage(`http://127.0.0.1:${served.port}`)).text();
      expect(html).not.toContain('real-subscription-key');
      expect(html).not.toContain(DEMO_API_KEYS.developer);
      expect(html).not.toContain(DEMO_API_KEYS.timesheet);
      expect(settingsOf(html)).toMatchObject({ subscriptionKey: null, demoApiKey: null });
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});

describe('graphiqlPage', () => {
  it('escapes its settings so no value can close the script element', () => {
    const html = graphiqlPage({ subscriptionKey: '</script><img src=x onerror=alert(1)>' });
    expect(html).not.toContain('</script><img');
    expect(settingsOf(html).subscriptionKey).toBe('</script><img src=x onerror=alert(1)>');
  });
});
