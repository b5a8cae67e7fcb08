import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Authenticator } from './auth/authenticator.js';
import { resolveJwtSecret } from './auth/jwt-secret.js';
import { TokenIssuer } from './auth/tokens.js';
import type { Config } from './config.js';
import { migrateLatest, openDatabase, type Db } from './db/knex.js';
import type { Services } from './graphql/context.js';
import { createYogaApp, type YogaApp } from './graphql/yoga.js';
import { DEFAULT_BODY_LIMIT_BYTES } from './http/read-body.js';
import { sendJson } from './http/respond.js';
import { CursorCodec } from './pagination/cursor-codec.js';
import { RestAdapter } from './rest/adapter.js';
import { failureEnvelope } from './rest/envelope.js';
import { routes } from './rest/routes.js';
import { sendFailure } from './rest/send-failure.js';
import { handleTokenRequest, TOKEN_PATH } from './rest/token-route.js';
import { createWebhookServices, WebhookWorkers } from './webhooks/service.js';

export interface App {
  config: Config;
  db: Db;
  services: Services;
  authenticator: Authenticator;
  tokens: TokenIssuer;
  yoga: YogaApp;
  server: Server;
  /** Webhook dispatcher, license scheduler and live relay; started when the server listens. */
  webhooks: WebhookWorkers;
  close(): Promise<void>;
}

function wantsGraphiQL(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
}

/** Builds the whole gateway on one database: migrations applied, nothing listening yet. */
export async function createApp(config: Config, options: { db?: Db; now?: () => number } = {}): Promise<App> {
  const db = options.db ?? openDatabase(config);
  await migrateLatest(db);
  const now = options.now ?? Date.now;
  const secret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const tokens = new TokenIssuer(secret, config.tokenTtlSeconds, now);
  const authenticator = new Authenticator(db, tokens, config.subscriptionKeys, config.apiKeyCacheSeconds, now);
  const webhookServices = createWebhookServices(config.webhooks);
  const services: Services = { db, cursors: new CursorCodec(secret), now: () => new Date(now()), webhooks: webhookServices };
  const yoga = createYogaApp(services, {
    graphiqlSubscriptionKey: config.demoSubscriptionKey ? config.subscriptionKeys[0] : undefined,
  });
  // Background work gets its own connection (when the database allows a second one), so it
  // never queues behind or interleaves with request statements; it renders payloads through
  // an identical yoga instance bound to that connection.
  const shareable = options.db !== undefined || (config.database.client === 'sqlite' && config.database.filename === ':memory:');
  const backgroundDb = shareable ? db : openDatabase({ ...config, poolMin: 0, poolMax: 2 });
  const backgroundYoga = shareable ? yoga : createYogaApp({ ...services, db: backgroundDb });
  const webhooks = new WebhookWorkers({ db: backgroundDb, yoga: backgroundYoga, config: config.webhooks, services: webhookServices, now });
  const bodyLimitBytes = DEFAULT_BODY_LIMIT_BYTES;
  const rest = new RestAdapter(routes, { yoga, authenticator, bodyLimitBytes });

  async function handleGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (wantsGraphiQL(req)) {
      await yoga(req, res, {});
      return;
    }
    try {
      const principal = await authenticator.authenticate(req.headers);
      await yoga(req, res, { principal });
    } catch (error) {
      req.resume();
      const message = error instanceof Error ? error.message : 'Unauthenticated';
      sendJson(res, 401, { errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }] }, { 'www-authenticate': 'Bearer' });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/graphql') return handleGraphQL(req, res);
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (url.pathname === TOKEN_PATH) return handleTokenRequest(req, res, authenticator, bodyLimitBytes);
    if (url.pathname.startsWith('/api/') && (await rest.handle(req, res, url))) return;
    req.resume();
    sendJson(res, 404, failureEnvelope(404, [`No route for ${req.method} ${url.pathname}`]));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendFailure(res, error);
      else res.destroy();
    });
  });

  server.on('listening', () => webhooks.start());

  return {
    config,
    db,
    services,
    authenticator,
    tokens,
    yoga,
    server,
    webhooks,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks.stop();
      if (backgroundDb !== db) await backgroundDb.destroy();
      await db.destroy();
    },
  };
}
