import { STATUS_CODES } from 'node:http';
import type { JsonSchema } from './json-schema.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

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
export function successEnvelope(status: number, data: JsonSchema, paged: boolean): JsonSchema {
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

/** The failure envelope for one HTTP status. */
export function failureEnvelope(status: number): JsonSchema {
  return {
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
  };
}
