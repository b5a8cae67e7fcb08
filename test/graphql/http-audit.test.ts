import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The GraphQL over HTTP conformance audits of graphql-http, run against /graphql as a caller
 * with credentials sees it. Every audit, MAY and SHOULD included, must pass: a warning or a
 * notice is a departure from the spec the project has not chosen.
 */
describe('GraphQL over HTTP audits of /graphql', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it('passes every audit (no warn, notice or error)', async () => {
    const fetchFn = (input: string | URL | Request, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('external-gh-apim-sub-key', SUB_KEY);
      headers.set('authorization', `Bearer ${token}`);
      return fetch(input, { ...init, headers });
    };
    const audits = serverAudits({ url: `${t.baseUrl}/graphql`, fetchFn });
    const results = [];
    for (const audit of audits) results.push(await audit.fn());
    const failing = results.filter((result) => result.status !== 'ok').map((result) => `${result.status} ${result.id} ${result.name}`);
    expect(failing, failing.join('\n')).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  });
});
