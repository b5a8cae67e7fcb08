import { useEngine } from '@envelop/core';
import { contextCacheSymbol } from '@pothos/core';
import { execute, GraphQLError, subscribe, type ExecutionResult } from 'graphql';
import { createYoga, isAsyncIterable, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { databaseUnavailableError } from '../shared/errors.js';
import { httpExtensionOf } from '../shared/http/failure.js';
import type { Principal } from '../shared/principal.js';
import type { LiveTicket } from '../webhooks/live-streams.js';
import { armorPlugins, type GraphQLLimits } from './armor.js';
import type { GraphQLContext, Services } from './context.js';
import { jitPlugin } from './jit.js';
import { schema } from './schema.js';

/** What the HTTP layer (or the gateway itself) hands to yoga: the caller, already authenticated. */
export interface ServerContext {
  principal?: Principal;
  /** Echoed in masked errors so a caller can quote it. */
  requestId?: string;
  /** Set when the request was admitted as a live stream (src/server/graphql-endpoint.ts). */
  liveStream?: LiveTicket;
}

export type YogaApp = YogaServerInstance<ServerContext, GraphQLContext>;

/** The request id of the operation an error came from, set by afterExecute before yoga masks the error. */
const requestIds = new WeakMap<object, string>();

/**
 * yoga's maskError: anything but our coded GraphQLErrors becomes a generic INTERNAL_SERVER_ERROR
 * (no message, stack, SQL or path) carrying the request id to quote, and the original is logged;
 * a database that is busy, out of reach, full or read-only becomes SERVICE_UNAVAILABLE (503).
 * isDev is ignored on purpose, so NODE_ENV=development never ships a stack trace either.
 */
export function maskErrorWith(sink: (error: unknown) => void): (error: unknown, message: string) => Error {
  return (error, message) => {
    const located = error instanceof GraphQLError ? error : undefined;
    if (located && (located.originalError == null || located.originalError instanceof GraphQLError)) return located;
    const unavailable = databaseUnavailableError(error, located);
    if (unavailable) {
      // `extensions.http` gives the answer to /graphql the status and headers of a 503 (and is left out of the body).
      (unavailable.extensions as Record<string, unknown>).http = httpExtensionOf('SERVICE_UNAVAILABLE');
      return unavailable;
    }
    sink(located?.originalError ?? error);
    const requestId = typeof error === 'object' && error !== null ? requestIds.get(error) : undefined;
    return new GraphQLError(message, {
      nodes: located?.nodes ?? null,
      path: located?.path ?? null,
      extensions: { code: 'INTERNAL_SERVER_ERROR', ...(requestId ? { requestId } : {}) },
    });
  };
}

/**
 * Once an operation has its result (from /graphql, a REST route or a payload), its errors are
 * marked with the request id for yoga's masking (which runs after every other plugin's), and its
 * plugin caches are released. The schema plugins keep those in WeakMaps keyed by the context's
 * `contextCacheSymbol` property: keyed by the context itself, which every cached value points back
 * at, a request's context, loaders and rows reached V8's old generation; a key of its own,
 * replaced here, dies at the next young collection. A stream keeps its caches and is not marked.
 */
function afterExecute(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) return;
          const context = args.contextValue as unknown as { [contextCacheSymbol]: object; requestId?: unknown };
          context[contextCacheSymbol] = {};
          const { requestId } = context;
          if (typeof requestId === 'string') for (const error of (result as ExecutionResult).errors ?? []) requestIds.set(error, requestId);
        },
      };
    },
  };
}

export interface YogaAppOptions {
  /** Work limits for documents sent to /graphql (src/graphql/armor.ts). */
  limits: GraphQLLimits;
  /** Called with the original error whenever an internal failure is hidden from the caller. */
  onUnexpectedError?: (error: unknown) => void;
  /** GRAPHQL_EXECUTOR=compiled: queries run by graphql-jit where it answers as graphql-js does (jit.ts). */
  jit: boolean;
}

/**
 * The one GraphQL pipeline: every operation (/graphql over either handler, a REST route, a
 * webhook or live-event payload: execute.ts) runs through this yoga's `getEnveloped`.
 */
export function createYogaApp(services: Services, options: YogaAppOptions): YogaApp {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    // graphql-js's own execute and subscribe: the executor yoga ships may order a response's keys otherwise than the query.
    plugins: [useEngine({ execute, subscribe }), ...armorPlugins(options.limits), afterExecute(), ...(options.jit ? [jitPlugin()] : [])],
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
      // A key of its own for the plugins' per-request caches, released by afterExecute.
      return { principal, services, liveStream, [contextCacheSymbol]: {} };
    },
  });
}
