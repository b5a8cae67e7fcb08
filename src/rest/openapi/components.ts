import { STATUS_CODES } from 'node:http';
import type { JsonSchema } from './selection-schema.js';

/** The parts of the OpenAPI document that no route adds to: envelopes, failure responses, headers, credentials. */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const responseRef = (status: number) => ({ $ref: `#/components/responses/Status${status}` });

export const SECURITY_SCHEMES = {
  subscriptionKey: {
    type: 'apiKey',
    in: 'header',
    name: 'external-gh-apim-sub-key',
    description: 'One of the SUBSCRIPTION_KEYS; sent with every request, the token request included.',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The accessToken of POST /api/external/token/request (an HS256 JWT naming the API key).',
  },
};

/** A page parameter of the envelope: the whole query string of the request for that page. */
const PAGE_PARAMETER: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'The query string of the request for that page (`after=…` or `before=…`), or the body of the same GET; present only when there is such a page.',
};

/** The envelope fields whatever the outcome (docs/rest-api.md, Envelope). */
export const ENVELOPE_COMPONENTS: Record<string, JsonSchema> = {
  ErrorItem: {
    type: 'object',
    properties: {
      code: { type: 'integer', description: 'The HTTP status of the failure.' },
      message: { type: 'string', description: 'What was wrong, naming the field or record where there is one.' },
    },
    required: ['code', 'message'],
    additionalProperties: false,
  },
  Failure: {
    type: 'object',
    description: 'The envelope of every failure: no data, at least one error.',
    properties: {
      status: {
        type: 'object',
        properties: {
          code: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status.' },
          errorMessage: { type: 'string', minLength: 1, description: "The first error's message." },
        },
        required: ['code', 'errorMessage'],
        additionalProperties: false,
      },
      data: { type: 'null' },
      count: { const: 0 },
      message: { type: 'string', description: 'The HTTP reason phrase.' },
      errors: { type: 'array', items: ref('ErrorItem'), minItems: 1 },
    },
    required: ['status', 'data', 'count', 'message', 'errors'],
    additionalProperties: false,
  },
};

/** The success envelope around `data` with HTTP status `status`; `paged` adds the page parameters. */
function successEnvelope(status: number, data: JsonSchema, paged: boolean): JsonSchema {
  return {
    type: 'object',
    properties: {
      status: {
        type: 'object',
        properties: { code: { const: status }, errorMessage: { const: '' } },
        required: ['code', 'errorMessage'],
        additionalProperties: false,
      },
      data,
      count: {
        type: 'integer',
        minimum: 0,
        description: data.type === 'array' ? 'The number of records in data.' : '1: the one record in data.',
      },
      message: { const: STATUS_CODES[status] ?? 'OK' },
      errors: { type: 'array', maxItems: 0 },
      ...(paged ? { nextPageParameter: PAGE_PARAMETER, prevPageParameter: PAGE_PARAMETER } : {}),
    },
    required: ['status', 'data', 'count', 'message', 'errors'],
    additionalProperties: false,
  };
}

/** The response headers, by their reference names in components.headers. */
const HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
  RequestId: {
    description: "The request's id (the caller's own when it sent a well-formed one); quote it when reporting a problem.",
    schema: { type: 'string', minLength: 1 },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  RateLimit: { description: 'What is left of the rate-limit budget and when it refills (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  RateLimitPolicy: { description: 'The rate-limit quota and window.', schema: { type: 'string' } },
  WwwAuthenticate: { description: 'The credential to send: a Bearer token.', schema: { type: 'string', pattern: '^Bearer' } },
};

const RATE_LIMIT_HEADERS = { ratelimit: headerRef('RateLimit'), 'ratelimit-policy': headerRef('RateLimitPolicy') };

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

/** The response object of a failure status; `when` replaces the general description. */
export function failureResponse(status: number, when?: string): JsonSchema {
  // x-request-id is on every answer; the others always come with these statuses.
  const headers = {
    'x-request-id': headerRef('RequestIdRequired'),
    ...(status === 401 ? { 'www-authenticate': headerRef('WwwAuthenticateRequired') } : {}),
    ...(status === 429 || status === 503 ? { 'retry-after': headerRef('RetryAfterRequired') } : {}),
    ...(status === 429 ? RATE_LIMIT_HEADERS : {}),
  };
  return {
    description: `${STATUS_CODES[status] ?? 'Error'}. ${when ?? WHEN[status] ?? ''}`.trim(),
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            ref('Failure'),
            {
              properties: {
                status: { properties: { code: { const: status } } },
                message: { const: STATUS_CODES[status] ?? 'Error' },
                errors: { items: { properties: { code: { const: status } } } },
              },
            },
          ],
        },
      },
    },
  };
}

/** components.headers: each header optional, and required where a status always sends it. */
export function headerComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(HEADERS).flatMap(([ref, header]) => [[ref, header], [`${ref}Required`, { ...header, required: true }]]));
}

/** The response object of a success; `rateLimited` when the route counts against the key's budget. */
export function successResponse(status: number, data: JsonSchema, paged: boolean, rateLimited: boolean): JsonSchema {
  return {
    description: STATUS_CODES[status] ?? 'OK',
    headers: { 'x-request-id': headerRef('RequestIdRequired'), ...(rateLimited ? RATE_LIMIT_HEADERS : {}) },
    content: { 'application/json': { schema: successEnvelope(status, data, paged) } },
  };
}
