import { useEngine } from '@envelop/core';
import { execute, subscribe } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Principal } from '../shared/principal.js';
import type { LiveTicket } from '../webhooks/live-streams.js';
import type { GraphQLContext, Services } from './context.js';
import { schema } from './schema.js';
import { armorPlugins, type GraphQLLimits } from './armor.js';
import { releaseRequestCachesPlugin, requestCacheKey } from './request-caches.js';
import { maskErrorWith, requestIdPlugin, type UnexpectedErrorSink } from './error-masking.js';
import { jitPlugin } from './jit.js';

/** What the HTTP layer (or the gateway itself) hands to yoga: the caller, already authenticated. */
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
  /** GRAPHQL_EXECUTOR=compiled: queries run by graphql-jit where it answers as graphql-js does (jit.ts). */
  jit: boolean;
}

/**
 * The one GraphQL pipeline. Every operation — a /graphql request over either handler
 * (src/graphql/http-handler.ts), a REST route, a webhook or live-event payload (execute.ts) —
 * runs through this yoga's `getEnveloped`, so its behaviour is this list of plugins:
 * graphql-js's own execute and subscribe (the executor yoga ships may order a response's keys
 * otherwise than the query), GraphQL Armor's limits and the cost limit (armor.ts, cost.ts), the
 * request id on masked errors and yoga's error masking (error-masking.ts), the release of the
 * schema plugins' per-request caches (request-caches.ts), and graphql-jit (jit.ts).
 */
export function createYogaApp(services: Services, options: YogaAppOptions): YogaApp {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    plugins: [
      useEngine({ execute, subscribe }),
      ...armorPlugins(options.limits),
      requestIdPlugin(),
      releaseRequestCachesPlugin(),
      ...(options.jit ? [jitPlugin()] : []),
    ],
    batching: { limit: options.limits.batchLimit },
    maskedErrors: { maskError: maskErrorWith(options.onUnexpectedError ?? (() => {})), isDev: false },
    graphqlEndpoint: '/graphql',
    // Cross-origin access is decided for every path in one place (src/server/cors.ts); yoga's own would allow any origin.
    cors: false,
    landingPage: false,
    logging: false,
    // The GraphiQL page is shiftgate's own (src/server/graphiql/page.ts), served before yoga is reached.
    graphiql: false,
    context: ({ principal, liveStream }) => {
      // The HTTP layer never lets an unauthenticated request reach execution.
      if (!principal) throw new Error('request reached GraphQL without a principal');
      // A key of its own for the plugins' per-request caches, released once the operation has its result (request-caches.ts).
      return { principal, services, liveStream, ...requestCacheKey() };
    },
  });
}
