import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { requestContextOf } from '../request-context.js';
import { failureOfError, INTERNAL_ERROR_MESSAGE, refusal, type HttpFailure } from './failure.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

/** The page parameters of a REST envelope; one left undefined is absent from the JSON. */
export type PageParameters = { nextPageParameter?: string; prevPageParameter?: string };

/** The envelope of every REST answer (docs/rest-api.md, Envelope). */
export function successEnvelope(code: number, data: unknown, page?: PageParameters) {
  const count = Array.isArray(data) ? data.length : data === null || data === undefined ? 0 : 1;
  return { status: { code, errorMessage: '' }, data, count, message: STATUS_CODES[code] ?? 'OK', errors: [], ...page };
}

export function failureEnvelope(code: number, messages: string[]) {
  const message = STATUS_CODES[code] ?? 'Error';
  const list = messages.length > 0 ? messages : [message];
  return { status: { code, errorMessage: list[0]! }, data: null, count: 0, message, errors: list.map((text) => ({ code, message: text })) };
}

/** The request's context, once a failure's internal error (if any) is logged with its request id. */
function loggedContext(res: ServerResponse, failure: HttpFailure) {
  const context = requestContextOf(res);
  if (failure.unlogged !== undefined) context?.log.error({ err: failure.unlogged, requestId: context.requestId }, 'unexpected error');
  return context;
}

/**
 * Renders a failure as the REST envelope. An internal error is masked: the caller learns only
 * that it happened, and the request id to quote (also in x-request-id).
 */
export function sendEnvelopeFailure(res: ServerResponse, failure: HttpFailure, headers: Record<string, string> = {}): void {
  const context = loggedContext(res, failure);
  const internal = context ? `${INTERNAL_ERROR_MESSAGE} (request id ${context.requestId})` : INTERNAL_ERROR_MESSAGE;
  const messages = failure.status === 500 ? [internal] : failure.messages;
  sendJson(res, failure.status, failureEnvelope(failure.status, messages), { ...failure.headers, ...headers });
}

/** Sends any thrown error as an envelope (src/shared/http/failure.ts decides status and headers). */
export function sendFailure(res: ServerResponse, thrown: unknown): void {
  sendEnvelopeFailure(res, failureOfError(thrown));
}

/** Refuses (405) a method the path does not serve: `allow` lists those it does, `use` what the message suggests. */
export function refuseMethod(req: IncomingMessage, res: ServerResponse, allow: string, use = allow): void {
  req.resume();
  sendEnvelopeFailure(res, refusal(405, 'METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use ${use}`), { allow });
}

/** The same as GraphQL error JSON, for what ends a /graphql request before a GraphQL handler answers it. */
export function sendGraphQLFailure(res: ServerResponse, failure: HttpFailure): void {
  const context = loggedContext(res, failure);
  const extensions = failure.status === 500 && context ? { code: failure.code, requestId: context.requestId } : { code: failure.code };
  sendJson(res, failure.status, { errors: failure.messages.map((message) => ({ message, extensions })) }, failure.headers);
}
