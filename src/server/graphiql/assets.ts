import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagOf, refuseUnlessRead, sendFixedBody } from '../fixed-body.js';

/** Where the GraphiQL page's scripts, styles and workers are served; all from this server, none from a CDN. */
export const GRAPHIQL_ASSET_PREFIX = '/graphiql/';

/** Asset name → how to produce it. GraphiQL's bundle comes from @graphql-yoga/render-graphiql, loaded on first use. */
type Bundle = typeof import('@graphql-yoga/render-graphiql/graphiql');
const JS = 'text/javascript; charset=utf-8';
const SOURCES: Record<string, { contentType: string; read: (bundle: Bundle) => Buffer }> = {
  'graphiql.js': { contentType: JS, read: (b) => Buffer.from(b.js) },
  'graphiql.css': { contentType: 'text/css; charset=utf-8', read: (b) => Buffer.from(b.css) },
  'editor.worker.js': { contentType: JS, read: (b) => Buffer.from(b.editorWorkerService) },
  'json.worker.js': { contentType: JS, read: (b) => Buffer.from(b.jsonWorker) },
  'graphql.worker.js': { contentType: JS, read: (b) => Buffer.from(b.graphqlWorker) },
  'favicon.ico': { contentType: 'image/x-icon', read: (b) => Buffer.from(b.favicon.slice(b.favicon.indexOf(',') + 1), 'base64') },
  // shiftgate's own: the sign-in bar (static/ is beside src/ and dist/, so this path holds for both).
  'sign-in.js': { contentType: JS, read: () => readFileSync(new URL('../../../static/graphiql-sign-in.js', import.meta.url)) },
  'sign-in.css': { contentType: 'text/css; charset=utf-8', read: () => readFileSync(new URL('../../../static/graphiql-sign-in.css', import.meta.url)) },
};

/** The asset paths, for metric labels. */
export const GRAPHIQL_ASSET_PATHS = Object.keys(SOURCES).map((name) => GRAPHIQL_ASSET_PREFIX + name);

const cache = new Map<string, { contentType: string; body: Buffer; etag: string }>();

/**
 * GET/HEAD /graphiql/<name>: one of the fixed assets, revalidated by ETag (they change only when
 * the package or static/ does). False when the path names no asset, so the router answers 404.
 */
export async function serveGraphiQLAsset(pathname: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const name = pathname.slice(GRAPHIQL_ASSET_PREFIX.length);
  let asset = cache.get(name);
  if (!asset) {
    // Own names only: `constructor` or `__proto__` is not an asset.
    if (!Object.hasOwn(SOURCES, name)) return false;
    const source = SOURCES[name]!;
    const body = source.read(await import('@graphql-yoga/render-graphiql/graphiql'));
    asset = { contentType: source.contentType, body, etag: etagOf(body) };
    cache.set(name, asset);
  }
  if (!refuseUnlessRead(req, res)) {
    sendFixedBody(req, res, asset.body, { etag: asset.etag, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }, { 'content-type': asset.contentType });
  }
  return true;
}
