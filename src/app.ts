import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Authenticator } from './auth/authenticator.js';
import { resolveJwtSecret } from './auth/jwt-secret.js';
import { TokenIssuer } from './auth/tokens.js';
import type { Config } from './config.js';
import { openDatabase, type Db } from './db/knex.js';
import { openDatabaseForStart, prepareDatabase } from './db/prepare.js';
import type { Services } from './graphql/context.js';
import { tryGraphQLFastLane } from './graphql/fast-lane.js';
import { createYogaApp, type YogaApp } from './graphql/yoga.js';
import { handleOperability, OPERABILITY_PATHS } from './http/operability.js';
import { createRateLimits } from './http/rate-limits.js';
import { readBody } from './http/read-body.js';
import { Admission, answerClientErrors, factsOf, requestRoad, serverOptions } from './http/request-road.js';
import { sendJson } from './http/respond.js';
import { apiError, errorCodeOf, statusForCode } from './errors.js';
import { createLogger, type Logger } from './observability/logger.js';
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
  logger: Logger;
  /** Stops accepting, lets in-flight requests and deliveries finish (bounded), closes the database. */
  close(): Promise<void>;
}

function wantsGraphiQL(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
}

/** Builds the whole gateway on one database: migrations applied, nothing listening yet. */
export async function createApp(config: Config, options: { db?: Db; now?: () => number; logger?: Logger } = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.limits.logLevel);
  const db = options.db ?? openDatabaseForStart(config);
  let secret: Uint8Array;
  try {
    await prepareDatabase(db, config.database);
    secret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  } catch (error) {
    // A pool left open would keep a failed start-up's process alive.
    if (!options.db) await db.destroy().catch(() => undefined);
    throw error;
  }
  const now = options.now ?? Date.now;
  const tokens = new TokenIssuer(secret, config.tokenTtlSeconds, now);
  const authenticator = new Authenticator(db, tokens, config.subscriptionKeys, config.apiKeyCacheSeconds, now);
  const webhookServices = createWebhookServices(config.webhooks);
  const services: Services = { db, cursors: new CursorCodec(secret), now: () => new Date(now()), webhooks: webhookServices };
  const yoga = createYogaApp(services, {
    graphiqlSubscriptionKey: config.demoSubscriptionKey ? config.subscriptionKeys[0] : undefined,
    limits: config.limits.graphql,
    onUnexpectedError: (err) => logger.error({ err }, 'unexpected GraphQL error'),
  });
  // Background work gets its own connection (when the database allows a second one), so it
  // never queues behind or interleaves with request statements; it renders payloads through
  // an identical yoga instance bound to that connection.
  const shareable = options.db !== undefined || (config.database.client === 'sqlite' && config.database.filename === ':memory:');
  const backgroundDb = shareable ? db : openDatabase({ ...config, poolMin: 0, poolMax: 2 });
  const backgroundYoga = shareable ? yoga : createYogaApp({ ...services, db: backgroundDb });
  const webhooks = new WebhookWorkers({ db: backgroundDb, yoga: backgroundYoga, config: config.webhooks, services: webhookServices, now });
  const bodyLimitBytes = config.limits.bodyLimitBytes;
  const admission = new Admission(authenticator, createRateLimits(config.limits, db));
  const rest = new RestAdapter(routes, { yoga, bodyLimitBytes, admit: (req, res) => admission.admit(req, res) });
  let draining = false;

  async function handleGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (wantsGraphiQL(req)) {
      await yoga(req, res, {});
      return;
    }
    const requestId = factsOf(res)?.requestId;
    try {
      const principal = await admission.admit(req, res);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // yoga would answer other media types with an empty 4xx; say why, as GraphQL JSON.
        if (!/^application\/(graphql\+)?json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
          throw apiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
        }
        // Read (and bound) the body here; yoga takes it as an async iterable instead of the socket.
        const body = await readBody(req, bodyLimitBytes);
        if (await tryGraphQLFastLane(yoga, req, res, body, { principal, requestId })) return;
        (req as IncomingMessage & { body?: unknown }).body = { size: body.length, async *[Symbol.asyncIterator]() { yield body; } };
      }
      await yoga(req, res, { principal, requestId });
    } catch (error) {
      req.resume();
      if (res.headersSent) throw error;
      const code = errorCodeOf(error as { extensions?: Record<string, unknown> }) ?? 'INTERNAL_SERVER_ERROR';
      const status = statusForCode(code);
      if (status >= 500) logger.error({ err: error, requestId }, 'unexpected error');
      const message = status >= 500 ? 'Internal server error' : (error as Error).message;
      const extensions = status >= 500 ? { code, requestId } : { code };
      sendJson(res, status, { errors: [{ message, extensions }] }, status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/graphql') return handleGraphQL(req, res);
    if (await handleOperability(url.pathname, req, res, { db, draining: () => draining })) return;
    if (url.pathname === TOKEN_PATH) {
      try {
        await admission.admitTokenRequest(req, res);
      } catch (error) {
        req.resume();
        return sendFailure(res, error);
      }
      return handleTokenRequest(req, res, authenticator, bodyLimitBytes);
    }
    if (url.pathname.startsWith('/api/') && (await rest.handle(req, res, url))) return;
    req.resume();
    sendJson(res, 404, failureEnvelope(404, [`No route for ${req.method} ${url.pathname}`]));
  }

  const server = createServer(
    serverOptions(config.limits),
    requestRoad(
      { limits: config.limits, logger, routes, fixedRoutes: ['/graphql', TOKEN_PATH, ...OPERABILITY_PATHS] },
      handle,
      (_req, res, error) => {
        if (!res.headersSent) sendFailure(res, error);
        else res.destroy();
      },
    ),
  );
  answerClientErrors(server, logger);

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
    logger,
    async close() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets go at once; busy ones may finish until SHUTDOWN_TIMEOUT_MS.
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), config.limits.shutdownTimeoutMs);
      await closed;
      clearTimeout(force);
      await webhooks.stop();
      if (backgroundDb !== db) await backgroundDb.destroy();
      await db.destroy();
    },
  };
}
