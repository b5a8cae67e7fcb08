import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openRecordedPage, serveStaticPage, type StaticOrigin, type TestBrowser } from '../support/browser.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A front end on another origin: it obtains a token, then reads licenses over REST and the same
 * staff member over GraphQL, with fetch. Each step's outcome lands in window.outcome.
 */
const FRONT_END = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>front end</title><link rel="icon" href="data:,"></head>
<body><script>
const params = new URLSearchParams(location.search);
const api = params.get('api');
const credentials = { 'external-gh-apim-sub-key': params.get('sub') };
async function step(call) {
  try {
    return await call();
  } catch (error) {
    return { blocked: String(error) };
  }
}
window.outcome = (async () => {
  const token = await step(async () => {
    const res = await fetch(api + '/api/external/token/request', {
      method: 'POST',
      headers: { ...credentials, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: params.get('key') }),
    });
    return { status: res.status, accessToken: (await res.json()).data.accessToken };
  });
  const authorization = 'Bearer ' + token.accessToken;
  const rest = await step(async () => {
    const res = await fetch(api + '/api/external/staffs/1001/licenses', { headers: { ...credentials, authorization } });
    return { status: res.status, requestId: res.headers.get('x-request-id'), body: await res.json() };
  });
  const graphql = await step(async () => {
    const res = await fetch(api + '/graphql', {
      method: 'POST',
      headers: { ...credentials, authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ staff(employeeId: 1001) { employeeId firstName } }' }),
    });
    return { status: res.status, body: await res.json() };
  });
  return { token, rest, graphql };
})();
</script></body></html>`;

describe('a front end on another origin, in a browser', () => {
  let browser: TestBrowser;
  let allowed: StaticOrigin;
  let other: StaticOrigin;
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    allowed = await serveStaticPage(FRONT_END);
    other = await serveStaticPage(FRONT_END);
    t = await startTestApp({ env: { CORS_ORIGINS: allowed.origin } });
    apiKey = (await t.key({ type: 'developer', companyId: 1 })).apiKey;
  });
  afterAll(async () => {
    await browser.close();
    await t.close();
    await allowed.close();
    await other.close();
  });

  async function outcomeFrom(origin: StaticOrigin) {
    const recorded = await openRecordedPage(browser);
    const query = new URLSearchParams({ api: t.baseUrl, sub: SUB_KEY, key: apiKey });
    await recorded.page.goto(`${origin.origin}/?${query}`);
    const outcome = await recorded.page.evaluate(() => (window as unknown as { outcome: Promise<any> }).outcome);
    await recorded.page.close();
    return { outcome, recorded };
  }

  it('calls REST and GraphQL when its origin is in CORS_ORIGINS, and reads the exposed request id', async () => {
    const { outcome, recorded } = await outcomeFrom(allowed);
    expect(outcome.token.status).toBe(200);
    expect(outcome.token.accessToken).toMatch(/^ey/);
    expect(outcome.rest.status).toBe(200);
    expect(outcome.rest.requestId).toMatch(/\S/);
    expect(outcome.rest.body.data.length).toBeGreaterThan(0);
    expect(outcome.graphql.status).toBe(200);
    expect(outcome.graphql.body).toEqual({ data: { staff: { employeeId: 1001, firstName: expect.any(String) } } });
    expect(recorded.consoleErrors).toEqual([]);
    expect(recorded.externalRequests).toEqual([]);
  });

  it('is blocked by the browser when its origin is not in CORS_ORIGINS', async () => {
    const { outcome, recorded } = await outcomeFrom(other);
    expect(outcome.token).toEqual({ blocked: 'TypeError: Failed to fetch' });
    expect(outcome.rest).toEqual({ blocked: 'TypeError: Failed to fetch' });
    expect(outcome.graphql).toEqual({ blocked: 'TypeError: Failed to fetch' });
    // The browser says why, once per call.
    const corsErrors = recorded.consoleErrors.filter((line) => line.includes(`from origin '${other.origin}' has been blocked by CORS policy`));
    expect(corsErrors).toHaveLength(3);
    expect(recorded.externalRequests).toEqual([]);
  });
});
