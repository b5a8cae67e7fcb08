import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiProblems, type CapturedResponse } from '../support/openapi-responses.js';
import { routes } from '../../src/rest/routes.js';
import { assertResponsesDocumented, startTestApp, SUB_KEY, type TestApp } from '../support/test-app.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const REQUEST_ID = { 'x-request-id': 'r-1', 'content-type': 'application/json; charset=utf-8' };
const failure = (code: number, message: string) => ({
  status: { code, errorMessage: 'nope' },
  data: null,
  count: 0,
  message,
  errors: [{ code, message: 'nope' }],
});
const customers = (data: unknown) => ({ status: { code: 200, errorMessage: '' }, data, count: 1, message: 'OK', errors: [] });

function response(overrides: Partial<CapturedResponse>): CapturedResponse {
  return { method: 'GET', url: '/api/external/customers', status: 200, headers: REQUEST_ID, body: json(customers([])), ...overrides };
}

describe('the check of responses against schema/openapi.json', () => {
  it('accepts a response the document describes', () => {
    expect(openApiProblems(response({ body: json(customers([{ customerApiId: 1, customerName: 'A' }])) }))).toEqual([]);
    expect(openApiProblems(response({ status: 404, url: '/api/external/timesheets/5', body: json(failure(404, 'Not Found')) }))).toEqual([]);
  });

  it('refuses a body that does not match the schema: a missing field, a wrong type, an extra field', () => {
    expect(openApiProblems(response({ body: json(customers([{ customerApiId: 1 }])) })).join()).toMatch(/customerName/);
    expect(openApiProblems(response({ body: json(customers([{ customerApiId: '1', customerName: 'A' }])) })).join()).toMatch(/integer/);
    expect(openApiProblems(response({ body: json(customers([{ customerApiId: 1, customerName: 'A', x: 1 }])) })).join()).toMatch(/additional/);
  });

  it('refuses a status the operation does not list, and a failure whose status.code differs', () => {
    expect(openApiProblems(response({ status: 403, body: json(failure(403, 'Forbidden')) })).join()).toMatch(/not a documented response/);
    expect(openApiProblems(response({ status: 400, body: json(failure(404, 'Not Found')) }))).not.toEqual([]);
  });

  it('refuses a path or method the document does not describe unless it is a failure envelope', () => {
    expect(openApiProblems(response({ url: '/api/external/new-route' })).join()).toMatch(/no path of the document/);
    expect(openApiProblems(response({ method: 'PATCH', url: '/api/external/customers' })).join()).toMatch(/has no PATCH/);
    expect(openApiProblems(response({ url: '/api/nope', status: 404, body: json(failure(404, 'Not Found')) }))).toEqual([]);
    expect(openApiProblems(response({ method: 'PATCH', status: 405, body: json(failure(405, 'Method Not Allowed')) })).join()).toMatch(/Allow/);
  });

  it('checks the headers that matter: content type, x-request-id, Retry-After on 429 and 503', () => {
    expect(openApiProblems(response({ headers: { ...REQUEST_ID, 'content-type': 'text/plain' } })).join()).toMatch(/content-type/);
    expect(openApiProblems(response({ headers: { 'content-type': 'application/json' } })).join()).toMatch(/x-request-id/);
    for (const status of [429, 503]) {
      const refused = response({ status, body: json(failure(status, status === 429 ? 'Too Many Requests' : 'Service Unavailable')) });
      expect(openApiProblems(refused).join()).toMatch(/retry-after is missing/);
      expect(openApiProblems({ ...refused, headers: { ...REQUEST_ID, 'retry-after': '1' } })).toEqual([]);
    }
  });

  it('leaves paths outside the REST API and CORS preflights alone', () => {
    expect(openApiProblems(response({ url: '/graphql', body: Buffer.from('x') }))).toEqual([]);
    expect(openApiProblems(response({ method: 'OPTIONS', status: 204, body: Buffer.alloc(0) }))).toEqual([]);
  });
});

describe('every test server checks its responses', () => {
  let t: TestApp;
  const customers = routes.find((r) => r.path === '/api/external/customers')!;
  beforeAll(async () => {
    // A route added to the table but not to the document (as if schema/openapi.json were not regenerated).
    routes.push({ ...customers, path: '/api/external/customers-again' });
    t = await startTestApp();
  });
  afterAll(async () => {
    routes.pop();
    await t.close();
  });

  it('records a response of a route the document lacks, whichever client sent the request', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    // A bare fetch, not TestApp.request: the check sits in the server, not in a client helper.
    const res = await fetch(`${t.baseUrl}/api/external/customers-again`, {
      headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(t.openApiProblems.join()).toMatch(/GET \/api\/external\/customers-again → 200: no path of the document matches/);
    expect(() => assertResponsesDocumented(t)).toThrow(/not described by schema\/openapi.json/);
    expect(t.openApiProblems).toEqual([]);
  });

  it('passes the same request on a documented route', async () => {
    const token = await t.token({ type: 'developer', companyId: 1 });
    const res = await fetch(`${t.baseUrl}/api/external/customers`, {
      headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(t.openApiProblems).toEqual([]);
  });
});
