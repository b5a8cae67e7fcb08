import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { globalId } from './helpers.js';

/**
 * A response's keys follow the selection set, as the GraphQL specification asks, whichever
 * executor runs the operation and whether a field's resolver answers at once or with a promise
 * (a node's `id` is resolved at once, the Staff fields through a loader). Compared as text: the
 * order of keys is lost once a body is parsed and compared as values.
 */
describe.each(['standard', 'compiled'] as const)('the order of keys in a GraphQL response (GRAPHQL_EXECUTOR=%s)', (executor) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { GRAPHQL_EXECUTOR: executor } });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function answer(query: string, variables: Record<string, unknown>): Promise<string> {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  it('is the order of the selection set, fragments in their place, sent once and again', async () => {
    const id = globalId('Staff', 1001);
    const query = 'query N($id: ID!) { node(id: $id) { __typename id ... on Staff { employeeId } } }';
    const expected = `{"data":{"node":{"__typename":"Staff","id":"${id}","employeeId":1001}}}`;
    // The first time yoga's stage runs it; after that, under the compiled executor, graphql-jit does.
    for (let round = 0; round < 3; round++) expect(await answer(query, { id })).toBe(expected);
  });

  it('is the order of the selection set when it is the reverse of the schema', async () => {
    const id = globalId('Staff', 1001);
    const query = 'query N($id: ID!) { node(id: $id) { ... on Staff { employeeId } id __typename } }';
    const expected = `{"data":{"node":{"employeeId":1001,"id":"${id}","__typename":"Staff"}}}`;
    for (let round = 0; round < 3; round++) expect(await answer(query, { id })).toBe(expected);
  });
});
