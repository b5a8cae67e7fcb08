import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ORIGIN = 'https://frontend.example.com';

/** A plain request: no subscription key, no token. */
const bare = (t: TestApp, path: string, init: RequestInit = {}) => fetch(t.baseUrl + path, init);

describe('GET /openapi.json and /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ORIGINS: ORIGIN } });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('/openapi.json', () => {
    it('serves the committed document without credentials', async () => {
      const res = await bare(t, '/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.text()).toBe(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8'));
    });

    it('answers a repeated request with its ETag by 304', async () => {
      const first = await bare(t, '/openapi.json');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);
      const again = await bare(t, '/openapi.json', { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
    });

    it('gets the CORS headers of the API for an allowed origin, and none for another', async () => {
      const allowed = await bare(t, '/openapi.json', { headers: { origin: ORIGIN } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(allowed.headers.get('vary')).toMatch(/Origin/);
      const other = await bare(t, '/openapi.json', { headers: { origin: 'https://elsewhere.example.com' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await bare(t, '/openapi.json', {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
    });

    it('refuses another method with 405 and Allow', async () => {
      const res = await t.request('POST', '/openapi.json', { body: {} });
      expectFailure(res, 405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('/docs', () => {
    it('serves the reference page without credentials, linking GraphiQL and the document', async () => {
      const res = await bare(t, '/docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      const html = await res.text();
      expect(html).toContain('href="/graphql"');
      expect(html).toContain('href="/openapi.json"');
      expect(html).toContain('<div id="swagger-ui"></div>');
    });

    it('names no external URL: every script, style and image comes from this host', async () => {
      const html = await (await bare(t, '/docs')).text();
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
      const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThan(4);
      for (const url of urls) expect(url, url).toMatch(/^\/[a-z]/);
      const init = await (await bare(t, '/docs/assets/init.js')).text();
      expect(init).toContain("url: '/openapi.json'");
      expect(init).toContain('validatorUrl: null');
      expect(init).not.toMatch(/https?:\/\//);
    });

    it('serves every asset the page names, with its content type and a day of caching', async () => {
      const html = await (await bare(t, '/docs')).text();
      const assets = [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets).toEqual(
        expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/init.js', '/docs/assets/page.css']),
      );
      const types: Record<string, RegExp> = { css: /^text\/css/, js: /^text\/javascript/, png: /^image\/png$/ };
      for (const asset of assets) {
        const res = await bare(t, asset);
        expect(res.status, asset).toBe(200);
        expect(res.headers.get('content-type'), asset).toMatch(types[asset.split('.').pop()!]!);
        expect(res.headers.get('cache-control'), asset).toBe('public, max-age=86400');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
      }
      const bundle = await (await bare(t, '/docs/assets/swagger-ui-bundle.js')).text();
      expect(bundle).toBe(readFileSync(join(ROOT, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js'), 'utf8'));
    });

    it('serves only its listed files: other names in the package and traversal attempts are 404', async () => {
      for (const path of [
        '/docs/assets/package.json',
        '/docs/assets/swagger-ui-bundle.js.map',
        '/docs/assets/index.html',
        '/docs/assets/',
        '/docs/assets/%2e%2e/%2e%2e/package.json',
        '/docs/assets/..%2f..%2fpackage.json',
        '/docs/assets/swagger-ui.css/',
        '/docs/nope',
      ]) {
        const res = await t.request('GET', path, { subKey: null });
        expect([400, 404], path).toContain(res.status);
        expectFailure(res, res.status);
        expect(res.text, path).not.toContain('"name": "swagger-ui-dist"');
      }
    });

    it('refuses another method with 405 and Allow', async () => {
      const res = await t.request('POST', '/docs', { body: {} });
      expectFailure(res, 405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    });
  });
});
