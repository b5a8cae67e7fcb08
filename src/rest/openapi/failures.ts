import { STATUS_CODES } from 'node:http';
import { failureEnvelope } from './envelope-schemas.js';
import type { JsonSchema } from './json-schema.js';

/** A response header, by its reference name in components.headers. */
export const HEADERS: Record<string, { name: string; description: string; schema: JsonSchema }> = {
  RequestId: {
    name: 'x-request-id',
    description: "The request's id (the caller's own when it sent a well-formed one); quote it when reporting a problem.",
    schema: { type: 'string', minLength: 1 },
  },
  RetryAfter: { name: 'retry-after', description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  RateLimit: { name: 'ratelimit', description: 'What is left of the rate-limit budget and when it refills (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  RateLimitPolicy: { name: 'ratelimit-policy', description: 'The rate-limit quota and window.', schema: { type: 'string' } },
  WwwAuthenticate: { name: 'www-authenticate', description: 'The credential to send: a Bearer token.', schema: { type: 'string', pattern: '^Bearer' } },
};

/** When each failure status is answered; a route lists the ones that apply to it. */
const WHEN: Record<number, string> = {
  400: 'Bad input: an unknown or repeated query parameter, a bad value (named), a malformed or tampered cursor, a malformed body, or a path with dot segments or encoded slashes.',
  401: 'Missing or wrong subscription key, or a missing, malformed, expired or revoked token.',
  403: 'The API key is of the wrong KeyType for this route.',
  404: 'The record is missing or outside the key\'s scope (the same answer for both).',
  408: 'The request was not received in time.',
  409: 'Conflict.',
  413: 'The body is larger than BODY_LIMIT_BYTES.',
  414: 'The path and query are longer than MAX_URL_LENGTH.',
  415: 'A body that is not application/json where JSON is expected, or that is not UTF-8.',
  429: 'Rate limit reached; Retry-After says when to try again.',
  431: 'The request headers are larger than MAX_HEADER_BYTES.',
  500: 'An internal error; the message carries the request id.',
  503: 'The database stayed busy; nothing was written. Retry-After says when to try again.',
};

/** Headers each failure status always carries (beyond x-request-id, which every answer has). */
const REQUIRED_HEADERS: Record<number, string[]> = {
  401: ['WwwAuthenticate'],
  429: ['RetryAfter'],
  503: ['RetryAfter'],
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The response object of a failure status; `when` replaces the general description. */
export function failureResponse(status: number, when?: string): JsonSchema {
  const headers: Record<string, unknown> = { 'x-request-id': headerRef('RequestIdRequired') };
  for (const name of REQUIRED_HEADERS[status] ?? []) headers[HEADERS[name]!.name] = headerRef(`${name}Required`);
  if (status === 429) {
    headers['ratelimit'] = headerRef('RateLimit');
    headers['ratelimit-policy'] = headerRef('RateLimitPolicy');
  }
  return {
    description: `${STATUS_CODES[status] ?? 'Error'}. ${when ?? WHEN[status] ?? ''}`.trim(),
    headers,
    content: { 'application/json': { schema: failureEnvelope(status) } },
  };
}

/** components.responses: one named response per failure status. */
export function failureComponents(statuses: readonly number[]): Record<string, JsonSchema> {
  return Object.fromEntries(statuses.map((status) => [`Status${status}`, failureResponse(status)]));
}

/** components.headers: each header optional, and required where a status always sends it. */
export function headerComponents(): Record<string, JsonSchema> {
  const entries: [string, JsonSchema][] = [];
  for (const [ref, { description, schema }] of Object.entries(HEADERS)) {
    entries.push([ref, { description, schema }]);
    entries.push([`${ref}Required`, { description, schema, required: true }]);
  }
  return Object.fromEntries(entries);
}

export const responseRef = (status: number) => ({ $ref: `#/components/responses/Status${status}` });
