import type { ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { asApiError, errorCodeOf, headersForCode, statusForCode } from '../errors.js';
import { factsOf } from '../http/request-road.js';
import { sendJson } from '../http/respond.js';
import { failureEnvelope } from './envelope.js';

/**
 * Sends any thrown error as an envelope. Internal errors are logged with the request id and
 * masked: the caller sees only "Internal server error" and the id to quote (also in x-request-id).
 * A busy database is a 503 with Retry-After.
 */
export function sendFailure(res: ServerResponse, thrown: unknown, headers: Record<string, string> = {}): void {
  const error = asApiError(thrown);
  const code = error instanceof GraphQLError ? errorCodeOf(error) : undefined;
  const status = error instanceof GraphQLError ? statusForCode(code) : 500;
  let message: string;
  if (status === 500) {
    const facts = factsOf(res);
    facts?.log.error({ err: error, requestId: facts.requestId }, 'unexpected error');
    message = internalErrorMessage(res);
  } else {
    message = (error as Error).message;
  }
  sendJson(res, status, failureEnvelope(status, [message]), { ...headersForCode(code), ...headers });
}

/** The only thing a caller learns about an internal failure: that it happened, and the id to quote. */
export function internalErrorMessage(res: ServerResponse): string {
  const requestId = factsOf(res)?.requestId;
  return requestId ? `Internal server error (request id ${requestId})` : 'Internal server error';
}
