import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_API_KEYS } from '../../src/cli/demo-data.js';
import { DEMO_SUBSCRIPTION_KEY } from '../../src/config.js';
import { createTestDatabase, type TestDatabase } from '../support/backend.js';
import { launchBrowser, openRecordedPage, type TestBrowser } from '../support/browser.js';
import { startServe, type Served } from '../support/cli-process.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** The query the page opens with (src/server/graphiql/page.ts), asked here without the browser. */
const DEFAULT_QUERY_FIELDS = '{ staff(employeeId: 1001) { firstName lastName licenses(first: 5) { edges { node { licenseNumber } } } } }';

interface StaffAnswer {
  firstName: string;
  lastName: string;
  licenses: { edges: { node: { licenseNumber: string } }[] };
}

/** What the server answers the default query's fields with, through Node's fetch. */
async function expectedStaff(baseUrl: string, subscriptionKey: string, apiKey: string): Promise<StaffAnswer> {
  const headers = { 'content-type': 'application/json', 'external-gh-apim-sub-key': subscriptionKey };
  const token = await fetch(`${baseUrl}/api/external/token/request`, { method: 'POST', headers, body: JSON.stringify({ apiKey }) });
  const { data } = (await token.json()) as { data: { accessToken: string } };
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${data.accessToken}` },
    body: JSON.stringify({ query: DEFAULT_QUERY_FIELDS }),
  });
  const body = (await res.json()) as { data: { staff: StaffAnswer } };
  expect(body.data.staff.licenses.edges.length).toBeGreaterThan(0);
  return body.data.staff;
}

/** An editor's visible text; Monaco renders spaces as no-break spaces. */
async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).innerText()).replace(/\u00a0/g, ' ');
}

/** Presses Run once the query editor shows the default query. */
async function run(page: Page): Promise<void> {
  await expect.poll(() => textOf(page, '.graphiql-query-editor'), { timeout: 20_000 }).toContain('query Licenses');
  await page.locator('.graphiql-execute-button').click();
}

/** The response pane shows the staff member and their first license. */
async function expectStaffShown(page: Page, staff: StaffAnswer): Promise<void> {
  await expect.poll(() => textOf(page, '.graphiql-response'), { timeout: 20_000 }).toContain(staff.licenses.edges[0]!.node.licenseNumber);
  const shown = await textOf(page, '.graphiql-response');
  expect(shown).toContain(`"firstName": "${staff.firstName}"`);
  expect(shown).toContain(`"lastName": "${staff.lastName}"`);
  expect(shown).not.toMatch(/"errors"/);
}

/** The headers GraphiQL holds for its active tab, as the page stored them. */
async function storedHeaders(page: Page): Promise<string> {
  return page.evaluate(() => {
    const state = JSON.parse(localStorage.getItem('graphiql:tabState') ?? '{}') as { tabs?: { headers?: string }[]; activeTabIndex?: number };
    return state.tabs?.[state.activeTabIndex ?? 0]?.headers ?? '';
  });
}

async function currentToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (JSON.parse(sessionStorage.getItem('shiftgate:token') ?? 'null') as { accessToken?: string } | null)?.accessToken);
}

function expectHeadersOnePerLine(headers: string, subscriptionKey: string, token: string): void {
  expect(headers.split('\n')).toEqual(['{', `  "external-gh-apim-sub-key": "${subscriptionKey}",`, `  "Authorization": "Bearer ${token}"`, '}']);
}

describe('GraphiQL in a browser', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  describe('on a demo server (`shiftgate serve --demo`, as `npm start` runs it)', () => {
    let database: TestDatabase;
    let served: Served;
    beforeAll(async () => {
      database = await createTestDatabase();
      served = await startServe(['--demo'], database.env);
    });
    afterAll(async () => {
      await served.stop();
      await database.close();
    });

    it('runs the default query on first open (data shown, no console error, no request leaving the host), and signs out', async () => {
      const baseUrl = `http://127.0.0.1:${served.port}`;
      const staff = await expectedStaff(baseUrl, DEMO_SUBSCRIPTION_KEY, DEMO_API_KEYS.developer);
      const recorded = await openRecordedPage(browser);
      const { page } = recorded;
      await page.goto(`${baseUrl}/graphql`);
      await expect.poll(() => page.locator('#sign-in output').innerText(), { timeout: 20_000 }).toMatch(/^Signed in with the demo developer key/);
      await run(page);
      await expectStaffShown(page, staff);
      const token = await currentToken(page);
      expect(token).toMatch(/^ey/);
      await expect.poll(() => storedHeaders(page)).toContain('Authorization');
      expectHeadersOnePerLine(await storedHeaders(page), DEMO_SUBSCRIPTION_KEY, token!);
      await recorded.screenshot('graphiql-demo-after-run');

      // Signing out holds, although the demo page signs in by itself; Run then asks to sign in.
      await Promise.all([page.waitForEvent('load'), page.click('button[name=signOut]')]);
      await expect.poll(() => page.locator('#sign-in output').innerText(), { timeout: 20_000 }).toMatch(/^Sign in with your subscription key/);
      expect(await currentToken(page)).toBeUndefined();
      expect(await storedHeaders(page)).not.toContain('Authorization');
      await run(page);
      await expect.poll(() => textOf(page, '.graphiql-response'), { timeout: 20_000 }).toContain('Sign in above');

      expect(recorded.consoleErrors).toEqual([]);
      expect(recorded.externalRequests).toEqual([]);
      await page.close();
    });
  });

  describe('on a server that is not a demo', () => {
    let t: TestApp;
    let apiKey: string;
    let staff: StaffAnswer;
    beforeAll(async () => {
      t = await startTestApp();
      apiKey = (await t.key({ type: 'developer', companyId: 1 })).apiKey;
      staff = await expectedStaff(t.baseUrl, SUB_KEY, apiKey);
    });
    afterAll(() => t.close());

    it('signs in with a new API key, fills the headers one per line, runs the default query and renews the token', async () => {
      const recorded = await openRecordedPage(browser);
      const { page } = recorded;
      // The page's clock, so the renewal can be reached without waiting for it.
      await page.clock.install();
      await page.goto(`${t.baseUrl}/graphql`);
      const status = page.locator('#sign-in output');
      await expect.poll(() => status.innerText(), { timeout: 20_000 }).toMatch(/^Sign in with your subscription key/);
      expect(await currentToken(page)).toBeUndefined();

      // A wrong key is refused where the user typed it; nothing is stored.
      await page.fill('input[name=subscriptionKey]', SUB_KEY);
      await page.fill('input[name=apiKey]', 'sgk_not_a_key_0000000000000000');
      await page.click('button[type=submit]');
      await expect.poll(() => status.innerText()).toMatch(/^Sign-in failed: /);
      expect(await currentToken(page)).toBeUndefined();

      await page.fill('input[name=apiKey]', apiKey);
      await Promise.all([page.waitForEvent('load'), page.click('button[type=submit]')]);
      await expect.poll(() => status.innerText(), { timeout: 20_000 }).toMatch(/^Signed in\. The token runs until/);
      const first = await currentToken(page);
      expect(first).toMatch(/^ey/);
      // GraphiQL stores its tabs a moment after it starts.
      await expect.poll(() => storedHeaders(page)).toContain('Authorization');
      expectHeadersOnePerLine(await storedHeaders(page), SUB_KEY, first!);
      // The subscription key is kept for the next visit; the API key only for this tab.
      expect(await page.evaluate(() => localStorage.getItem('shiftgate:subscription-key'))).toBe(SUB_KEY);
      expect(await page.evaluate(() => localStorage.getItem('shiftgate:api-key'))).toBeNull();

      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql') sent.push(request.headers()['authorization'] ?? '');
      });
      await run(page);
      await expectStaffShown(page, staff);
      expect(sent.at(-1)).toBe(`Bearer ${first}`);
      await recorded.screenshot('graphiql-signed-in-after-run');

      // Close to the token's end the page obtains a new one; the editor still holds the first,
      // and the request carries the new one.
      await page.clock.fastForward('59:00');
      await expect.poll(() => currentToken(page), { timeout: 20_000 }).not.toBe(first);
      const renewed = await currentToken(page);
      expect(renewed).toMatch(/^ey/);
      await run(page);
      await expect.poll(() => sent.at(-1), { timeout: 20_000 }).toBe(`Bearer ${renewed}`);

      // The browser reports the refused sign-in's 401; nothing else went wrong.
      expect(recorded.consoleErrors).toEqual([expect.stringMatching(/status of 401 .*\/api\/external\/token\/request\)$/)]);
      expect(recorded.externalRequests).toEqual([]);
      await page.close();
    });
  });
});
