import { GraphQLError } from 'graphql';

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

export function errorCodeOf(error: { extensions?: Record<string, unknown> | undefined }): ErrorCode | undefined {
  const code = error.extensions?.code;
  return typeof code === 'string' && code in ERROR_STATUS ? (code as ErrorCode) : undefined;
}

export function statusForCode(code: ErrorCode | undefined): number {
  return code ? ERROR_STATUS[code] : 500;
}
