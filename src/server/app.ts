import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Authenticator } from '../auth/authenticator.js';
import { trustedProxyList } from '../auth/client-address.js';
import { resolveJwtSecret } from '../auth/jwt-secret.js';
import { createRateLimits } from '../auth/rate-limits.js';
import { TokenAttempts } from '../auth/token-attempts.js';
import { TokenIssuer } from '../auth/tokens.js';
import type { Config, DatabaseConfig } from '../config.js';
import type { Services } from '../graphql/context.js';
import { executorOf } from '../graphql/execute.js';
import { createYogaApp } from '../graphql/yoga.js';
import { RestAdapter } from '../rest/adapter.js';
import { routes } from '../rest/routes.js';
import { handleTokenRequest, TOKEN_PATH } from '../rest/token-route.js';
import { migrateLatest, openDatabase, pingDatabase, type Db } from '../shared/db/knex.js';
import { refusal } from '../shared/http/failure.js';
import { sendEnvelopeFailure } from '../shared/http/respond.js';
import { createLogger, type Logger } from '../shared/observability/logger.js';
import type { Principal } from '../shared/principal.js';
import { firstLineOf, StartupError } from '../shared/startup-error.js';
import { requestContextOf } from '../shared/request-context.js';
import { CursorCodec } from '../shared/pagination/cursor-codec.js';
import { LiveStreams } from '../webhooks/live-streams.js';
import { createWebhookServices } from '../webhooks/services.js';
import { WebhookWorkers } from '../workers/webhook-workers.js';
import { answerClientErrors } from './client-errors.js';
import { corsLayer } from './cors.js';
import { DOCS_PATH, serveDocs } from './docs-page.js';
import { ConnectionDrain } from './drain.js';
import { GRAPHIQL_ASSET_PATHS, GRAPHIQL_ASSET_PREFIX, serveGraphiQLAsset } from './graphiql/assets.js';
import { graphiqlPage as renderGraphiQLPage, type GraphiQLPublicCredentials } from './graphiql/page.js';
import { graphqlEndpoint } from './graphql-endpoint.js';
import { operabilityEndpoints } from './operability.js';
import { openApiEndpoint, OPENAPI_PATH, type PrintOpenApi } from './openapi-endpoint.js';
import { requestEntry } from './request-entry.js';
import { routingPath } from './routing-path.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The whole gateway (createApp). */
export type App = Awaited<ReturnType<typeof createApp>>;

export interface CreateAppOptions {
  db?: Db;
  now?: () => number;
  logger?: Logger;
  /** Prints the OpenAPI document on the first request to /openapi.json (by default, the generator in src/rest/openapi/). */
  printOpenApi?: PrintOpenApi;
}

/** Names the database for an operator without its credentials (a PostgreSQL URL may carry a password). */
function describeDatabase(database: DatabaseConfig): string {
  if (database.client === 'sqlite') return database.filename;
  try {
    const url = new URL(database.connectionString);
    return `(PostgreSQL at ${url.host}${url.pathname})`;
  } catch {
    return '(PostgreSQL)';
  }
}

/** Builds the whole gateway on one database: migrations applied, nothing listening yet. */
export async function createApp(config: Config, options: CreateAppOptions = {}) {
  const { limits } = config;
  const logger = options.logger ?? createLogger(limits.logLevel);
  const cannotOpen = (error: unknown) => new StartupError(`cannot open the database ${describeDatabase(config.database)}: ${firstLineOf(error)}`);
  let db: Db;
  try {
    db = options.db ?? openDatabase(config);
  } catch (error) {
    throw cannotOpen(error); // e.g. a SQLite directory that cannot be created
  }
  let secret: Uint8Array;
  try {
    // Connects once, then migrates, so an unreachable or corrupt database and a failed migration
    // are reported as what they are rather than as one opaque knex error.
    await pingDatabase(db).catch((error: unknown) => {
      throw cannotOpen(error);
    });
    await migrateLatest(db).catch((error: unknown) => {
      throw new StartupError(`database migration failed: ${firstLineOf(error)}`);
    });
    secret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  } catch (error) {
    // A pool left open would keep a failed start-up's process alive.
    if (!options.db) await db.destroy().catch(() => undefined);
    throw error;
  }
  const now = options.now ?? Date.now;
  const tokens = new TokenIssuer(secret, config.tokenTtlSeconds, now);
  const authenticator = new Authenticator(db, tokens, config.subscriptionKeys, config.apiKeyCacheSeconds, now);
  const webhookServices = createWebhookServices(config.webhooks, limits);
  const services: Services = { db, cursors: new CursorCodec(secret), now: () => new Date(now()), webhooks: webhookServices };
  const yogaOptions = {
    limits: limits.graphql,
    onUnexpectedError: (err: unknown) => logger.error({ err }, 'unexpected GraphQL error'),
    jit: config.graphqlExecutor === 'compiled',
  };
  const yoga = createYogaApp(services, yogaOptions);
  // Background work gets its own connection (when the database allows a second one), so it
  // never queues behind or interleaves with request statements; it renders payloads through
  // an identical yoga instance bound to that connection.
  const shareable = options.db !== undefined || (config.database.client === 'sqlite' && config.database.filename === ':memory:');
  const backgroundDb = shareable ? db : openDatabase({ ...config, poolMin: 0, poolMax: 2 });
  const backgroundServices: Services = shareable ? services : { ...services, db: backgroundDb };
  const backgroundYoga = shareable ? yoga : createYogaApp(backgroundServices, yogaOptions);
  const webhooks = new WebhookWorkers({ db: backgroundDb, execute: executorOf(backgroundYoga), config: config.webhooks, services: webhookServices, now });
  const bodyLimitBytes = limits.bodyLimitBytes;
  const rateLimits = createRateLimits(limits, db);
  /** Both APIs' one gate between the headers and any route or resolver: the caller, charged one request, its key noted for the log line. */
  const authenticate = async (req: IncomingMessage, res: ServerResponse): Promise<Principal> => {
    const principal = await authenticator.authenticate(req.headers);
    const context = requestContextOf(res);
    if (context) context.keyId = principal.keyId;
    await rateLimits.perKey.consume(principal.keyId, res);
    return principal;
  };
  /** The further operations of a GraphQL batch, charged to the same budget. */
  const charge = (principal: Principal, res: ServerResponse, points: number) => rateLimits.perKey.consume(principal.keyId, res, points);
  const tokenAttempts = new TokenAttempts(rateLimits, trustedProxyList(limits.trustedProxies));
  const liveStreams = new LiveStreams({ db, limits: config.live, keyCheckSeconds: config.apiKeyCacheSeconds, now });
  const execute = executorOf(yoga);
  const rest = new RestAdapter(routes, { execute, bodyLimitBytes, authenticate });
  // Only public credentials reach the page: the demo subscription key while it is accepted, and a demo API key once offered.
  const graphiqlCredentials: GraphiQLPublicCredentials = config.demoSubscriptionKey ? { subscriptionKey: config.subscriptionKeys[0] } : {};
  const graphiqlPage = () => renderGraphiQLPage(graphiqlCredentials);
  /** The handlers of exact paths; everything else is routed by prefix below. */
  const exactPaths = new Map<string, Handler>([
    ['/graphql', graphqlEndpoint({ yoga, graphiqlPage, authenticate, charge, limits: limits.graphql, liveStreams, tokens, bodyLimitBytes })],
    ...Object.entries(operabilityEndpoints({ db, draining: (): boolean => drain.draining })),
    [OPENAPI_PATH, openApiEndpoint(options.printOpenApi)],
    [TOKEN_PATH, (req, res) => handleTokenRequest(req, res, { authenticator, attempts: tokenAttempts, bodyLimitBytes })],
  ]);
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    const pathname = routingPath(target);
    const exact = exactPaths.get(pathname);
    if (exact) return exact(req, res);
    if (pathname.startsWith(DOCS_PATH) && serveDocs(req, res, pathname)) return;
    // The REST adapter reads the query string, so only its requests pay for a URL.
    if (pathname.startsWith('/api/') && (await rest.handle(req, res, new URL(target, 'http://localhost')))) return;
    if (pathname.startsWith(GRAPHIQL_ASSET_PREFIX) && (await serveGraphiQLAsset(pathname, req, res))) return;
    req.resume();
    sendEnvelopeFailure(res, refusal(404, 'NOT_FOUND', `No route for ${req.method} ${pathname}`));
  }

  const server = createServer(
    {
      // Node counts the request target towards maxHeaderSize, and refuses once the count reaches it:
      // room for both limits and one byte more, so each is checked on its own (request-entry.ts)
      // and met exactly; what node refuses is sorted out by client-errors.ts.
      maxHeaderSize: limits.maxUrlLength + limits.maxHeaderBytes + 1,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the two time-outs on this interval (default 30 s): keep it well under them.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    requestEntry(handle, {
      limits,
      logger,
      routePaths: routes.map((r) => r.path),
      fixedPaths: [...exactPaths.keys(), DOCS_PATH, ...GRAPHIQL_ASSET_PATHS],
      cors: corsLayer(config.corsOrigins ?? []),
    }),
  );
  answerClientErrors(server, logger, limits);
  const drain = new ConnectionDrain(server);

  server.on('listening', () => webhooks.start());

  return {
    config,
    db,
    services,
    authenticator,
    tokens,
    yoga,
    /** Runs a checked-in operation through yoga's pipeline (src/graphql/execute.ts). */
    execute,
    server,
    /** Webhook dispatcher, license scheduler and live relay; started when the server listens. */
    webhooks,
    /** Open live-event streams: their caps and credential watch. */
    liveStreams,
    logger,
    /**
     * Lets GraphiQL sign in by itself with this API key: only for a demo's public key (`serve --demo`),
     * since the page shows it to anyone who opens it.
     */
    offerDemoKeyOnGraphiQL(apiKey: string) {
      graphiqlCredentials.demoApiKey = apiKey;
    },
    /** Stops accepting, lets in-flight requests and deliveries finish (bounded), closes the database. */
    async close() {
      // /readyz turns 503 first, so a balancer stops sending work while the rest winds down.
      const drained = drain.close(limits.shutdownTimeoutMs);
      // Streams would otherwise hold their connections open until SHUTDOWN_TIMEOUT_MS.
      liveStreams.endAll();
      await drained;
      await webhooks.stop();
      if (backgroundDb !== db) await backgroundDb.destroy();
      await db.destroy();
    },
  };
}
