import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { sendEnvelopeFailure } from '../rest/send-failure.js';
import { refusal } from '../shared/http/failure.js';
import { OPENAPI_PATH } from './openapi-endpoint.js';

export const DOCS_PATH = '/docs';
const ASSET_PREFIX = '/docs/assets/';

/** The files of swagger-ui-dist the page loads, by the name it loads them under: nothing else is served. */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** Starts Swagger UI on the document; a file of its own, so the page needs no inline script. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE_STYLE = `body { margin: 0; font-family: sans-serif; }
.shiftgate-nav { display: flex; gap: 1.5rem; align-items: baseline; padding: 0.75rem 1.25rem; background: #1b2a3a; color: #fff; }
.shiftgate-nav strong { font-size: 1.1rem; }
.shiftgate-nav a { color: #9fd3ff; }
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>shiftgate REST API reference</title>
<link rel="icon" type="image/png" href="${ASSET_PREFIX}favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${ASSET_PREFIX}favicon-16x16.png" sizes="16x16">
<link rel="stylesheet" href="${ASSET_PREFIX}swagger-ui.css">
<link rel="stylesheet" href="${ASSET_PREFIX}page.css">
</head>
<body>
<nav class="shiftgate-nav">
<strong>shiftgate</strong>
<span>REST API reference</span>
<a href="/graphql">GraphQL: GraphiQL</a>
<a href="${OPENAPI_PATH}">OpenAPI document (openapi.json)</a>
</nav>
<div id="swagger-ui"></div>
<script src="${ASSET_PREFIX}swagger-ui-bundle.js"></script>
<script src="${ASSET_PREFIX}init.js"></script>
</body>
</html>
`;

/** Only this host's files: the document, the assets above, images Swagger UI draws as data: URLs. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  // Swagger UI sets style attributes from script.
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  contentType: string;
}

let assets: Map<string, Asset> | undefined;

/** The assets by request path, read once per process on first use. */
function loadedAssets(): Map<string, Asset> {
  if (assets) return assets;
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const loaded = new Map<string, Asset>();
  for (const [name, contentType] of Object.entries(SWAGGER_UI_FILES)) {
    loaded.set(`${ASSET_PREFIX}${name}`, { body: readFileSync(join(dir, name)), contentType });
  }
  loaded.set(`${ASSET_PREFIX}init.js`, { body: Buffer.from(INIT_SCRIPT), contentType: 'text/javascript; charset=utf-8' });
  loaded.set(`${ASSET_PREFIX}page.css`, { body: Buffer.from(PAGE_STYLE), contentType: 'text/css; charset=utf-8' });
  assets = loaded;
  return loaded;
}

/**
 * GET /docs: the REST API reference, Swagger UI rendering /openapi.json, with every file served
 * from this process (swagger-ui-dist in node_modules), so it works without internet access.
 * Assets come from a fixed list read at start-up: a request path never becomes a file path.
 */
export function docsPage(): (req: IncomingMessage, res: ServerResponse, pathname: string) => boolean {
  const page = Buffer.from(PAGE);
  return (req, res, pathname) => {
    const isPage = pathname === DOCS_PATH || pathname === `${DOCS_PATH}/`;
    const asset = isPage || !pathname.startsWith(ASSET_PREFIX) ? undefined : loadedAssets().get(pathname);
    if (!asset && !isPage) return false;
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendEnvelopeFailure(res, refusal(405, 'METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use GET`), { allow: 'GET, HEAD' });
      return true;
    }
    const body = asset?.body ?? page;
    res.writeHead(200, {
      'content-type': asset?.contentType ?? 'text/html; charset=utf-8',
      'content-length': body.length,
      // The page is small and may change with a new version; the assets change only with the package.
      'cache-control': asset ? 'public, max-age=86400' : 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(asset ? {} : { 'content-security-policy': CONTENT_SECURITY_POLICY }),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
