import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Principal } from '../shared/principal.js';
import type { LiveTicket } from '../webhooks/live-streams.js';
import type { GraphQLContext, Services } from './context.js';
import { schema } from './schema.js';
import { armorPlugins, type GraphQLLimits } from './armor.js';
import { compiledCallerQueries } from './compiled-caller-queries.js';
import { releaseRequestCachesPlugin, requestCacheKey } from './request-caches.js';
import type { CompiledDocuments } from './compiled-documents.js';
import type { KnownQueries } from './known-queries.js';
import { maskErrorWith, requestIdPlugin, type UnexpectedErrorSink } from './error-masking.js';
import { graphqlJsEngine } from './execution-engine.js';

/** What the HTTP layer hands to yoga: the caller, already authenticated. */
export interface ServerContext {
  principal?: Principal;
  /** Echoed in masked errors so a caller can quote it. */
  requestId?: string;
  /** Set when the request was admitted as a live stream (src/graphql/subscriptions/stream-admission.ts). */
  liveStream?: LiveTicket;
}

export type YogaApp = YogaServerInstance<ServerContext, GraphQLContext>;

export interface YogaAppOptions {
  /** Work limits for documents sent to /graphql (src/graphql/armor.ts). */
  limits: GraphQLLimits;
  onUnexpectedError?: UnexpectedErrorSink;
  /** When given, the queries callers send run compiled from these where graphql-jit answers as graphql-js does (compiled-caller-queries.ts). */
  compiledDocuments?: CompiledDocuments | undefined;
  /** When given with compiledDocuments, the queries that ran compiled without an error are remembered here (known-queries.ts). */
  knownQueries?: KnownQueries | undefined;
}

/**
 * The per-request context from what the HTTP layer hands over: yoga's context factory, and the
 * one the known queries' lane (known-query-lane.ts) builds its context with.
 */
export function graphqlContextOf(services: Services): (serverContext: ServerContext) => GraphQLContext {
  return ({ principal, liveStream }) => {
    // The HTTP layer never lets an unauthenticated request reach execution.
    if (!principal) throw new Error('request reached GraphQL without a principal');
    // A key of its own for the plugins' per-request caches, released by whoever runs the operation (request-caches.ts).
    return { principal, services, liveStream, ...requestCacheKey() };
  };
}

export function createYogaApp(services: Services, options: YogaAppOptions): YogaApp {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    plugins: [graphqlJsEngine(), ...armorPlugins(options.limits), requestIdPlugin(), releaseRequestCachesPlugin(), ...(options.compiledDocuments ? [compiledCallerQueries(schema, options.compiledDocuments, options.knownQueries)] : [])],
    batching: { limit: options.limits.batchLimit },
    maskedErrors: { maskError: maskErrorWith(options.onUnexpectedError ?? (() => {})), isDev: false },
    graphqlEndpoint: '/graphql',
    // Cross-origin access is decided for every path in one place (src/server/cors.ts); yoga's own would allow any origin.
    cors: false,
    landingPage: false,
    logging: false,
    // The GraphiQL page is shiftgate's own (src/server/graphiql/page.ts), served before yoga is reached.
    graphiql: false,
    context: graphqlContextOf(services),
  });
}
