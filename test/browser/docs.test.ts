import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openRecordedPage, type TestBrowser } from '../support/browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The committed description (docs/rest-api.md, OpenAPI document and reference page): every path /docs must show. */
const document = JSON.parse(readFileSync(new URL('../../schema/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
const documented = Object.entries(document.paths)
  .flatMap(([path, item]) => Object.keys(item).filter((m) => HTTP_METHODS.has(m)).map((m) => `${m.toUpperCase()} ${path}`))
  .sort();

describe('/docs in a browser', () => {
  let t: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists every REST path of /openapi.json, links to GraphiQL, logs no error and loads nothing from elsewhere', async () => {
    const recorded = await openRecordedPage(browser);
    const { page } = recorded;
    await page.goto(`${t.baseUrl}/docs`);
    // Swagger UI renders one block per operation once it has fetched /openapi.json.
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 20_000 }).toBe(documented.length);
    const shown = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.toUpperCase()} ${path}`;
      }),
    );
    expect(shown.sort()).toEqual(documented);
    await expect.poll(() => page.locator('a[href="/graphql"]').count()).toBeGreaterThan(0);
    await recorded.screenshot('docs');
    expect(recorded.consoleErrors).toEqual([]);
    expect(recorded.externalRequests).toEqual([]);
  });
});
