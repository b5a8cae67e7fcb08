import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { databaseUnavailableError } from '../shared/errors.js';
import { httpExtensionOf } from '../shared/http/failure.js';

/** Called with the original error whenever an internal failure is hidden from the caller. */
export type UnexpectedErrorSink = (error: unknown) => void;

function isExpected(error: GraphQLError): boolean {
  const original = error.originalError;
  return original === undefined || original === null || original instanceof GraphQLError;
}

/** The error itself when it may be shown, otherwise its masked replacement. */
export type MaskError = (error: unknown, message: string) => Error;

/**
 * yoga's maskError: anything that is not one of our coded GraphQLErrors becomes a generic
 * INTERNAL_SERVER_ERROR (no message, stack, SQL or path), and the original goes to the log.
 * A database that is busy, out of reach, full or read-only is no fault of ours or the caller's:
 * it becomes SERVICE_UNAVAILABLE (503).
 * isDev is ignored on purpose, so NODE_ENV=development never ships a stack trace either.
 */
export function maskErrorWith(sink: UnexpectedErrorSink): MaskError {
  return (error: unknown, message: string): Error => {
    if (error instanceof GraphQLError && isExpected(error)) return error;
    const located = error instanceof GraphQLError ? error : undefined;
    const unavailable = databaseUnavailableError(error, located);
    if (unavailable) {
      // `extensions.http` makes yoga answer /graphql with the status and headers of a 503 (yoga strips it from the body).
      (unavailable.extensions as Record<string, unknown>).http = httpExtensionOf('SERVICE_UNAVAILABLE');
      return unavailable;
    }
    sink(error instanceof GraphQLError ? (error.originalError ?? error) : error);
    return new GraphQLError(message, {
      nodes: located?.nodes ?? null,
      path: located?.path ?? null,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  };
}

interface WithRequestId {
  requestId?: string;
}

/** Adds the request id to masked errors, so a caller can quote it to support. */
export function tagRequestId(errors: readonly GraphQLError[] | undefined, requestId: string | undefined): void {
  if (!errors || !requestId) return;
  for (const error of errors) {
    const extensions = error.extensions as Record<string, unknown> | undefined;
    if (extensions?.code === 'INTERNAL_SERVER_ERROR') extensions.requestId = requestId;
  }
}

/** The yoga side of tagRequestId, for responses yoga itself writes. */
export function requestIdPlugin(): Plugin<WithRequestId> {
  return {
    onResultProcess({ result, serverContext }) {
      const requestId = (serverContext as WithRequestId).requestId;
      for (const single of Array.isArray(result) ? result : [result]) {
        tagRequestId((single as { errors?: readonly GraphQLError[] }).errors, requestId);
      }
    },
  };
}
