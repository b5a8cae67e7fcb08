import { GraphQLError } from 'graphql';
import { databaseUnavailability, type Unavailability } from './db/unavailable.js';

/**
 * The error vocabulary shared by both APIs. Resolvers throw these; GraphQL callers see
 * `extensions.code`, and the REST adapter turns the same code into an HTTP status.
 */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  BAD_CURSOR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function apiError(code: ErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

export const badInput = (message: string) => apiError('BAD_USER_INPUT', message);
export const badCursor = (message: string) => apiError('BAD_CURSOR', message);
export const notFound = (message: string) => apiError('NOT_FOUND', message);
export const forbidden = (message: string) => apiError('FORBIDDEN', message);
export const conflict = (message: string) => apiError('CONFLICT', message);
export const unauthenticated = (message: string) => apiError('UNAUTHENTICATED', message);

/** Seconds a client is asked to wait before repeating a request the database could not serve. */
export const RETRY_AFTER_SECONDS = 1;

const UNAVAILABLE_MESSAGES: Record<Unavailability, string> = {
  busy: `The database is busy; retry after ${RETRY_AFTER_SECONDS} s`,
  unavailable: `The database is unavailable; retry after ${RETRY_AFTER_SECONDS} s`,
};

/**
 * The API error for a database that could not serve the request (busy, unreachable, full or
 * read-only: src/shared/db/unavailable.ts), or undefined for any other error. Nothing was written;
 * it is answered with 503 and Retry-After (src/shared/http/failure.ts). `located` keeps the
 * GraphQL path of the field that failed.
 */
export function databaseUnavailableError(error: unknown, located?: GraphQLError): GraphQLError | undefined {
  const unavailability = databaseUnavailability(error);
  if (!unavailability) return undefined;
  return new GraphQLError(UNAVAILABLE_MESSAGES[unavailability], {
    nodes: located?.nodes ?? null,
    path: located?.path ?? null,
    // Never shown (GraphQL errors serialise without it); it lets a worker reading an executed
    // result apply the same rule (src/workers/dispatcher.ts).
    originalError: error instanceof Error ? error : null,
    extensions: { code: 'SERVICE_UNAVAILABLE' },
  });
}

export function errorCodeOf(error: { extensions?: Record<string, unknown> | undefined }): ErrorCode | undefined {
  const code = error.extensions?.code;
  return typeof code === 'string' && code in ERROR_STATUS ? (code as ErrorCode) : undefined;
}

export function statusForCode(code: ErrorCode | undefined): number {
  return code ? ERROR_STATUS[code] : 500;
}
