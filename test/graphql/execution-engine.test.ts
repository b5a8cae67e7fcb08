import { buildSchema, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { executeMarkingRequestErrors, subscribeMarkingRequestErrors } from '../../src/graphql/execution-engine.js';

/**
 * yoga's stage executes with graphql-js (src/graphql/execution-engine.ts). Request errors carry
 * what yoga's bundled executor gave them: the status 400 yoga answers with, and its codes; a
 * resolver's error is left as graphql-js reports it.
 */
const schema = buildSchema(`
  type Query { staff(id: Int!): Int, boom: Int }
  type Subscription { tick: Int, broken: Int }
`);
const rootValue = {
  staff: ({ id }: { id: number }) => id,
  boom: () => {
    throw new Error('resolver failed');
  },
  tick: async function* () {
    yield { tick: 1 };
  },
  broken: () => {
    throw new Error('source failed');
  },
};

const run = (query: string, variableValues?: Record<string, unknown>, operationName?: string) =>
  executeMarkingRequestErrors({ schema, document: parse(query), rootValue, variableValues, operationName }) as ExecutionResult;
const extensionsOf = (result: ExecutionResult) => result.errors?.map((error) => ({ ...error.extensions }));

describe('the execute and subscribe yoga runs', () => {
  it('gives a variable that does not fit its type the status 400 and no code', () => {
    const result = run('query ($id: Int!) { staff(id: $id) }', { id: 'x' });
    expect(result.errors?.[0]?.message).toBe('Variable "$id" got invalid value "x"; Int cannot represent non-integer value: "x"');
    expect(extensionsOf(result)).toEqual([{ http: { status: 400 } }]);
    expect(extensionsOf(run('query ($id: Int!) { staff(id: $id) }', {}))).toEqual([{ http: { status: 400 } }]);
  });

  it('gives an operation that cannot be chosen the status 400 and OPERATION_RESOLUTION_FAILURE', () => {
    for (const [query, operationName] of [
      ['query A { staff(id: 1) } query B { staff(id: 2) }', undefined],
      ['query A { staff(id: 1) }', 'C'],
      ['fragment F on Query { boom }', undefined],
    ] as const) {
      expect(extensionsOf(run(query, undefined, operationName)), query).toEqual([{ code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } }]);
    }
  });

  it('leaves a resolver error and the data around it as graphql-js reports them', async () => {
    const result = await run('{ staff(id: 7) boom }');
    expect(result.data).toEqual({ staff: 7, boom: null });
    expect(result.errors?.map((error) => [error.message, error.path, error.extensions])).toEqual([['resolver failed', ['boom'], {}]]);
  });

  it('gives a subscription refused before it starts the status 400 and BAD_USER_INPUT, and leaves a failing source alone', async () => {
    const refused = (await subscribeMarkingRequestErrors({ schema, document: parse('subscription A { tick } subscription B { tick }'), rootValue })) as ExecutionResult;
    expect(extensionsOf(refused)).toEqual([{ code: 'BAD_USER_INPUT', http: { status: 400 } }]);
    const failing = (await subscribeMarkingRequestErrors({ schema, document: parse('subscription { broken }'), rootValue })) as ExecutionResult;
    expect(failing.errors?.map((error) => [error.message, error.path, error.extensions])).toEqual([['source failed', ['broken'], {}]]);
    const stream = await subscribeMarkingRequestErrors({ schema, document: parse('subscription { tick }'), rootValue });
    expect(Symbol.asyncIterator in stream).toBe(true);
  });
});
