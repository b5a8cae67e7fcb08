import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Headless Chromium for the browser tests (test/browser/): Debian's package, driven by
 * playwright-core, never a downloaded browser. `.ci/run` installs the package when it is missing.
 *
 *   const browser = await launchBrowser();                 // once per file (beforeAll)
 *   const recorded = await openRecordedPage(browser);      // a tab that records what went wrong
 *   await recorded.page.goto(`${t.baseUrl}/some/page`);
 *   await recorded.screenshot('some-page');                // test-artifacts/browser/some-page.png
 *   expect(recorded.consoleErrors).toEqual([]);
 *   expect(recorded.externalRequests).toEqual([]);
 *   await browser.close();                                 // afterAll, before the servers close
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots land here (git-ignored), one folder per run of a test file. */
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../../test-artifacts/browser');

export interface TestBrowser {
  /** One context on a fresh profile; each server a test starts is its own origin, so storage never carries over. */
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'shiftgate-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function isLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

export interface RecordedPage {
  page: Page;
  /** Console messages of type error and uncaught exceptions, in order. */
  consoleErrors: string[];
  /** Every request (page, frames, workers) to a host other than this machine's loopback. */
  externalRequests: string[];
  /** Saves a PNG of the page under ARTIFACTS_DIR and returns its path. */
  screenshot(name: string): Promise<string>;
}

/** A new tab that records console errors and any request leaving the host. */
export async function openRecordedPage(browser: TestBrowser): Promise<RecordedPage> {
  const page = await browser.context.newPage();
  const consoleErrors: string[] = [];
  const externalRequests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  // Watched at the context, so requests from workers count too (and, stricter, those of other tabs).
  browser.context.on('request', (request) => {
    if (!isLoopback(request.url())) externalRequests.push(request.url());
  });
  return {
    page,
    consoleErrors,
    externalRequests,
    async screenshot(name) {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
  };
}

export interface StaticOrigin {
  /** e.g. http://127.0.0.1:43127 (no trailing slash). */
  origin: string;
  close(): Promise<void>;
}

/** A second local origin serving one HTML page at `/` (any query string), for cross-origin calls from a browser. */
export async function serveStaticPage(html: string): Promise<StaticOrigin> {
  const server: Server = createServer((req, res) => {
    req.resume();
    if (new URL(req.url ?? '/', 'http://x').pathname === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        // A browser keeps connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}
