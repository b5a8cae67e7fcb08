import type { ServerResponse } from 'node:http';
import { failureOfError, type HttpFailure } from '../http/failure.js';
import { factsOf } from '../http/request-road.js';
import { sendJson } from '../http/respond.js';

/**
 * Renders a failure that ends a /graphql request before yoga answers it (credentials, rate
 * limits, body limits, media type) as GraphQL error JSON. An internal error is logged and
 * masked; its error carries the request id to quote.
 */
export function sendGraphQLFailure(res: ServerResponse, failure: HttpFailure): void {
  const facts = factsOf(res);
  if (failure.unlogged !== undefined) facts?.log.error({ err: failure.unlogged, requestId: facts.requestId }, 'unexpected error');
  const extensions = failure.status === 500 && facts ? { code: failure.code, requestId: facts.requestId } : { code: failure.code };
  sendJson(res, failure.status, { errors: failure.messages.map((message) => ({ message, extensions })) }, failure.headers);
}

/** Sends any thrown error as GraphQL error JSON (src/http/failure.ts decides status and headers). */
export function sendGraphQLError(res: ServerResponse, thrown: unknown): void {
  sendGraphQLFailure(res, failureOfError(thrown));
}
