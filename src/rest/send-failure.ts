import type { ServerResponse } from 'node:http';
import { failureOfError, INTERNAL_ERROR_MESSAGE, type HttpFailure } from '../shared/http/failure.js';
import { requestContextOf } from '../shared/request-context.js';
import { sendJson } from '../shared/http/respond.js';
import { failureEnvelope } from './envelope.js';

/**
 * Renders a failure as the contract's envelope. An internal error is logged with the request id
 * and masked: the caller learns only that it happened, and the id to quote (also in x-request-id).
 */
export function sendEnvelopeFailure(res: ServerResponse, failure: HttpFailure, headers: Record<string, string> = {}): void {
  const context = requestContextOf(res);
  if (failure.unlogged !== undefined) context?.log.error({ err: failure.unlogged, requestId: context.requestId }, 'unexpected error');
  const internal = context ? `${INTERNAL_ERROR_MESSAGE} (request id ${context.requestId})` : INTERNAL_ERROR_MESSAGE;
  const messages = failure.status === 500 ? [internal] : failure.messages;
  sendJson(res, failure.status, failureEnvelope(failure.status, messages), { ...failure.headers, ...headers });
}

/** Sends any thrown error as an envelope (src/shared/http/failure.ts decides status and headers). */
export function sendFailure(res: ServerResponse, thrown: unknown): void {
  sendEnvelopeFailure(res, failureOfError(thrown));
}
