import { expect } from 'vitest';

/**
 * Assertions for the REST response envelope (docs/rest-api.md, Envelope):
 *
 *   { status: { code, errorMessage }, data, count, message, errors: [{ code, message }],
 *     nextPageParameter?, prevPageParameter? }
 *
 * Usage:
 *   const res = await t.request('GET', '/api/external/timesheets/9001', { token });
 *   const env = expectEnvelope(res, 200);   // any status; success or failure rules by status
 *   const err = expectFailure(res, 404);    // same, but the status must be an error (>= 400)
 *
 * Both return the parsed envelope so the test can go on to check `data`.
 * `res` is anything with `status`, `headers` (fetch Headers or node header object) and the
 * parsed JSON `body` — the shape returned by `TestApp.request` and `rawRequest`.
 */

export interface Envelope {
  status: { code: number; errorMessage: string };
  data: any;
  count: number;
  message: string;
  errors: { code: number; message: string }[];
  nextPageParameter?: string;
  prevPageParameter?: string;
}

export interface EnvelopeResponse {
  status: number;
  headers: Headers | Record<string, string | string[] | undefined>;
  body: unknown;
}

const REQUIRED_KEYS = ['count', 'data', 'errors', 'message', 'status'];
const PAGE_KEYS = ['nextPageParameter', 'prevPageParameter'];

/** Reads one response header from either header representation. */
export function headerOf(res: Pick<EnvelopeResponse, 'headers'>, name: string): string | undefined {
  const { headers } = res;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** How many records `data` holds: the length of an array, 0 for null, 1 for one object. */
function recordCount(data: unknown): number {
  if (Array.isArray(data)) return data.length;
  return data === null || data === undefined ? 0 : 1;
}

/**
 * Asserts that `res` is a JSON envelope with HTTP status `status`:
 * - Content-Type is application/json;
 * - the body has exactly the envelope keys (page parameters only on success, as non-empty strings);
 * - status.code equals the HTTP status, status.errorMessage and message are strings;
 * - every errors item is `{ code: integer, message: string }`;
 * - on success (< 400): errors is empty, status.errorMessage is '' and count is the number of records in data;
 * - on failure (>= 400): data is null, count is 0, errors is non-empty and status.errorMessage is non-empty.
 */
export function expectEnvelope(res: EnvelopeResponse, status: number): Envelope {
  expect(res.status, `HTTP status (body: ${JSON.stringify(res.body).slice(0, 400)})`).toBe(status);
  expect(headerOf(res, 'content-type') ?? '').toMatch(/^application\/json\s*(;|$)/i);
  const body = res.body as Envelope;
  expect(body, 'body is a JSON object').toBeTypeOf('object');
  expect(body).not.toBeNull();
  const keys = Object.keys(body).sort();
  for (const key of REQUIRED_KEYS) expect(keys, `envelope key ${key}`).toContain(key);
  for (const key of keys) expect([...REQUIRED_KEYS, ...PAGE_KEYS], `unexpected envelope key ${key}`).toContain(key);

  expect(Object.keys(body.status).sort()).toEqual(['code', 'errorMessage']);
  expect(body.status.code).toBe(status);
  expect(body.status.errorMessage).toBeTypeOf('string');
  expect(body.message).toBeTypeOf('string');
  expect(Number.isInteger(body.count), 'count is an integer').toBe(true);
  expect(Array.isArray(body.errors), 'errors is an array').toBe(true);
  for (const item of body.errors) {
    expect(Object.keys(item).sort()).toEqual(['code', 'message']);
    expect(Number.isInteger(item.code), 'errors[].code is an integer').toBe(true);
    expect(item.message).toBeTypeOf('string');
  }

  if (status >= 400) {
    expect(body.data).toBeNull();
    expect(body.count).toBe(0);
    expect(body.errors.length, 'a failure lists at least one error').toBeGreaterThan(0);
    expect(body.status.errorMessage).not.toBe('');
    for (const key of PAGE_KEYS) expect(body, `no ${key} on a failure`).not.toHaveProperty(key);
  } else {
    expect(body.errors).toEqual([]);
    expect(body.status.errorMessage).toBe('');
    expect(body, 'data is present').toHaveProperty('data');
    expect(body.count).toBe(recordCount(body.data));
    for (const key of PAGE_KEYS) {
      if (key in body) {
        expect(body[key as keyof Envelope]).toBeTypeOf('string');
        expect(body[key as keyof Envelope]).not.toBe('');
      }
    }
  }
  return body;
}

/** Asserts a failure envelope with HTTP status `status` (which must be 400 or above). */
export function expectFailure(res: EnvelopeResponse, status: number): Envelope {
  expect(status, 'expectFailure needs an error status').toBeGreaterThanOrEqual(400);
  return expectEnvelope(res, status);
}
