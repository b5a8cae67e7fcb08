import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isDatabaseBusy } from '../db/busy.js';
import { databaseBusy } from '../errors.js';

/** Called with the original error whenever an internal failure is hidden from the caller. */
export type UnexpectedErrorSink = (error: unknown) => void;

function isExpected(error: GraphQLError): boolean {
  const original = error.originalError;
  return original === undefined || original === null || original instanceof GraphQLError;
}

/**
 * yoga's maskError: anything that is not one of our coded GraphQLErrors becomes a generic
 * INTERNAL_SERVER_ERROR (no message, stack, SQL or path), and the original goes to the log.
 * A busy database is no fault of ours or the caller's: it becomes SERVICE_UNAVAILABLE (503).
 * isDev is ignored on purpose, so NODE_ENV=development never ships a stack trace either.
 */
export function maskErrorWith(sink: UnexpectedErrorSink) {
  return (error: unknown, message: string): Error => {
    if (error instanceof GraphQLError && isExpected(error)) return error;
    const located = error instanceof GraphQLError ? error : undefined;
    if (isDatabaseBusy(error)) return databaseBusy(located);
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

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * What yoga does with `extensions.http` on its own path, for results sent without it (the
 * fast lane): the highest status any error asks for (else 200), their headers, and a body
 * without the extension.
 */
export function httpAnswerOf(result: ExecutionResult): { status: number; headers: Record<string, string>; body: ExecutionResult } {
  let status = 200;
  const headers: Record<string, string> = {};
  if (!result.errors?.some((error) => error.extensions?.http)) return { status, headers, body: result };
  const errors = result.errors.map((error) => {
    const { http, ...extensions } = error.extensions as { http?: HttpExtension };
    if (!http) return error;
    if (http.status && http.status > status) status = http.status;
    Object.assign(headers, http.headers);
    return { ...error.toJSON(), extensions };
  });
  return { status, headers, body: { ...result, errors: errors as ExecutionResult['errors'] } };
}
