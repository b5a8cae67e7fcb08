import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { databaseUnavailableError } from '../shared/errors.js';
import { httpExtensionOf } from '../shared/http/failure.js';

/** Called with the original error whenever an internal failure is hidden from the caller. */
export type UnexpectedErrorSink = (error: unknown) => void;

/** The request id of the operation an error came from, set by requestIdPlugin before yoga masks the error. */
const requestIds = new WeakMap<object, string>();

/**
 * yoga's maskError: anything but our coded GraphQLErrors becomes a generic INTERNAL_SERVER_ERROR
 * (no message, stack, SQL or path) carrying the request id to quote, and the original is logged;
 * a database that is busy, out of reach, full or read-only becomes SERVICE_UNAVAILABLE (503).
 * isDev is ignored on purpose, so NODE_ENV=development never ships a stack trace either.
 */
export function maskErrorWith(sink: UnexpectedErrorSink): (error: unknown, message: string) => Error {
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
 * Marks the errors of an operation's result with the request id of its context, for yoga's
 * masking (which runs after every other plugin's) to put on the masked error, so a caller can
 * quote it to support. A stream's events are not marked.
 */
export function requestIdPlugin(): Plugin {
  return {
    onExecute({ args }) {
      const requestId = (args.contextValue as { requestId?: unknown }).requestId;
      if (typeof requestId !== 'string') return undefined;
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) return;
          for (const error of (result as ExecutionResult).errors ?? []) requestIds.set(error, requestId);
        },
      };
    },
  };
}
