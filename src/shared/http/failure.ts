import type { ExecutionResult } from 'graphql';
import { databaseUnavailableError, RETRY_AFTER_SECONDS, errorCodeOf, statusForCode, type ErrorCode } from '../errors.js';

/**
 * A failure as HTTP answers it: the status, the code GraphQL callers read in `extensions.code`, the
 * messages and the status's headers. The REST envelope and GraphQL error JSON both render it.
 */
export interface HttpFailure {
  status: number;
  code: string;
  messages: string[];
  headers: Record<string, string>;
  /** An internal error that has not been logged yet; never shown to the caller. */
  unlogged?: unknown;
}

/** The only message a caller sees for an internal failure. */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/**
 * The headers a status brings: HTTP requires a challenge on every 401 (the one credential this API
 * takes is a Bearer token); a database that could not serve the request asks the caller to come back.
 */
function headersForStatus(status: number, code?: string): Record<string, string> {
  if (status === 401) return { 'www-authenticate': 'Bearer' };
  if (code === 'SERVICE_UNAVAILABLE') return { 'retry-after': String(RETRY_AFTER_SECONDS) };
  return {};
}

/** A refusal the HTTP layer decides itself (a path it will not route, a method, a limit). */
export function refusal(status: number, code: string, message: string): HttpFailure {
  return { status, code, messages: [message], headers: headersForStatus(status, code) };
}

const internal = (): HttpFailure => refusal(500, 'INTERNAL_SERVER_ERROR', INTERNAL_ERROR_MESSAGE);

/**
 * Any thrown error: one of the coded errors (src/shared/errors.ts) answers with its code's status and
 * message, a database that could not serve it with 503, anything else is an internal failure.
 */
export function failureOfError(thrown: unknown): HttpFailure {
  const error = databaseUnavailableError(thrown) ?? thrown;
  const code = typeof error === 'object' && error !== null ? errorCodeOf(error as { extensions?: Record<string, unknown> }) : undefined;
  const status = statusForCode(code);
  if (status === 500 || code === undefined) return { ...internal(), unlogged: error };
  return refusal(status, code, (error as Error).message);
}

/**
 * The failure of an executed operation's result, or null when it has no errors. The first coded
 * error decides the status, and every error of that status is reported. Errors without a code or
 * data: the variables did not coerce (the caller's input, 400). Masked errors were logged when masked.
 */
export function failureOfResult(result: ExecutionResult): HttpFailure | null {
  const errors = result.errors ?? [];
  if (errors.length === 0) return null;
  const coded = errors.find((e) => errorCodeOf(e) !== undefined);
  const code: ErrorCode | undefined = coded ? errorCodeOf(coded) : undefined;
  const status = coded ? statusForCode(code) : 'data' in result ? 500 : 400;
  if (status === 500) return internal();
  const relevant = coded ? errors.filter((e) => statusForCode(errorCodeOf(e)) === status) : errors;
  return { status, code: code ?? 'BAD_USER_INPUT', messages: relevant.map((e) => e.message), headers: headersForStatus(status, code) };
}

/** What yoga reads from an error's `extensions.http` to answer /graphql with the same status and headers. */
export function httpExtensionOf(code: ErrorCode): { status: number; headers: Record<string, string> } {
  const status = statusForCode(code);
  return { status, headers: headersForStatus(status, code) };
}
