import type { ServerResponse } from 'node:http';
import { failureOfError, type HttpFailure } from '../shared/http/failure.js';
import { requestContextOf } from '../shared/request-context.js';
import { sendJson } from '../shared/http/respond.js';

/**
 * Renders a failure that ends a /graphql request before yoga answers it (credentials, rate
 * limits, body limits, media type) as GraphQL error JSON. An internal error is logged and
 * masked; its error carries the request id to quote.
 */
export function sendGraphQLFailure(res: ServerResponse, failure: HttpFailure): void {
  const context = requestContextOf(res);
  if (failure.unlogged !== undefined) context?.log.error({ err: failure.unlogged, requestId: context.requestId }, 'unexpected error');
  const extensions = failure.status === 500 && context ? { code: failure.code, requestId: context.requestId } : { code: failure.code };
  sendJson(res, failure.status, { errors: failure.messages.map((message) => ({ message, extensions })) }, failure.headers);
}

/** Sends any thrown error as GraphQL error JSON (src/shared/http/failure.ts decides status and headers). */
export function sendGraphQLError(res: ServerResponse, thrown: unknown): void {
  sendGraphQLFailure(res, failureOfError(thrown));
}
