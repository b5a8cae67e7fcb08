import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { refuseUnlessRead, sendFixedBody } from './fixed-body.js';

export const DOCS_PATH = '/docs';
const ASSET_PREFIX = '/docs/assets/';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
};

/** Only this host's files: the document, the page's assets, images Swagger UI draws as data: URLs. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  // Swagger UI sets style attributes from script.
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

let files: Map<string, Buffer> | undefined;

/**
 * The page and its assets by request path, read once per process on first use: the files of
 * swagger-ui-dist the page loads, and its own from static/ (beside src/ and dist/). Nothing else.
 */
function readFiles(): Map<string, Buffer> {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const own = (name: string) => readFileSync(new URL(`../../static/${name}`, import.meta.url));
  return new Map([
    ...['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'].map((name) => [ASSET_PREFIX + name, readFileSync(join(dist, name))] as const),
    [`${ASSET_PREFIX}init.js`, own('docs-init.js')],
    [`${ASSET_PREFIX}page.css`, own('docs-page.css')],
    [`${DOCS_PATH}.html`, own('docs.html')],
  ]);
}

/**
 * GET /docs: the REST API reference, Swagger UI rendering /openapi.json, with every file served
 * from this process, so it works without internet access. A request path never becomes a file
 * path. False when the path names neither the page nor an asset, so the router answers 404.
 */
export function serveDocs(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  const isPage = pathname === DOCS_PATH || pathname === `${DOCS_PATH}/`;
  if (!isPage && !pathname.startsWith(ASSET_PREFIX)) return false;
  const name = isPage ? `${DOCS_PATH}.html` : pathname;
  const body = (files ??= readFiles()).get(name);
  if (!body) return false;
  if (refuseUnlessRead(req, res)) return true;
  sendFixedBody(req, res, body, {
    'content-type': CONTENT_TYPES[extname(name)],
    // The page is small and may change with a new version; the assets change only with the package.
    'cache-control': isPage ? 'no-cache' : 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
    ...(isPage ? { 'content-security-policy': CONTENT_SECURITY_POLICY } : {}),
  });
  return true;
}
