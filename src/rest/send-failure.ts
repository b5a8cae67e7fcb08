import type { ServerResponse } from 'node:http';
import { failureOfError, type HttpFailure } from '../shared/http/failure.js';
import { requestContextOf } from '../shared/request-context.js';
import { sendJson } from '../shared/http/respond.js';
import { failureEnvelope } from './envelope.js';

/** The only thing a REST caller learns about an internal failure: that it happened, and the id to quote. */
export function internalErrorMessage(res: ServerResponse): string {
  const requestId = requestContextOf(res)?.requestId;
  return requestId ? `Internal server error (request id ${requestId})` : 'Internal server error';
}

/**
 * Renders a failure as the contract's envelope. An internal error is logged with the request id
 * and masked (the id is also in x-request-id).
 */
export function sendEnvelopeFailure(res: ServerResponse, failure: HttpFailure, headers: Record<string, string> = {}): void {
  const context = requestContextOf(res);
  if (failure.unlogged !== undefined) context?.log.error({ err: failure.unlogged, requestId: context.requestId }, 'unexpected error');
  const messages = failure.status === 500 ? [internalErrorMessage(res)] : failure.messages;
  sendJson(res, failure.status, failureEnvelope(failure.status, messages), { ...failure.headers, ...headers });
}

/** Sends any thrown error as an envelope (src/shared/http/failure.ts decides status and headers). */
export function sendFailure(res: ServerResponse, thrown: unknown): void {
  sendEnvelopeFailure(res, failureOfError(thrown));
}
