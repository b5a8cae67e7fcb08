import { getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { operationCost } from '../../src/graphql/cost.js';
import type { Services } from '../../src/graphql/context.js';
import { KNOWN_QUERIES, KnownQueries, type KnownQuery } from '../../src/graphql/known-queries.js';
import { knownQueryLane } from '../../src/graphql/known-query-lane.js';
import { graphqlContextOf, type ServerContext } from '../../src/graphql/yoga.js';
import type { Principal } from '../../src/shared/principal.js';
import { schema } from '../../src/graphql/schema.js';

/**
 * The registry of queries yoga's stage has answered in full (src/graphql/known-queries.ts): how
 * texts and operation names are told apart, and its bound. What the lane answers is compared
 * with yoga in test/graphql/transport-equality.test.ts.
 */

function knownQuery(text: string, name?: string): KnownQuery {
  const document = parse(text);
  const compiled = compileQuery(schema, document, name);
  if (!isCompiledQuery(compiled)) throw new Error('does not compile');
  return { document, operation: getOperationAST(document, name) as OperationDefinitionNode, compiled };
}

describe('known queries', () => {
  it('finds a text by its operation name as sent, an absent name being neither the empty string nor another name', () => {
    const known = new KnownQueries({ maxTexts: 10 });
    const text = 'query A { __typename } query B { __typename }';
    const a = knownQuery(text, 'A');
    known.remember(text, 'A', a);
    expect(known.find(text, 'A')).toBe(a);
    expect(known.find(text, 'B')).toBeUndefined();
    expect(known.find(text, '')).toBeUndefined();
    expect(known.find(text, undefined)).toBeUndefined();

    const single = '{ __typename }';
    const unnamed = knownQuery(single);
    known.remember(single, undefined, unnamed);
    // null and an absent name choose the operation alike (graphql-js's getOperationAST).
    expect(known.find(single, null)).toBe(unnamed);
    expect(known.find(single, undefined)).toBe(unnamed);
    expect(known.find(single, '')).toBeUndefined();
    // The text is the key to the character: another spacing is another text.
    expect(known.find('{  __typename }', undefined)).toBeUndefined();
  });

  it('holds at most maxTexts texts, dropping the least recently used', () => {
    const known = new KnownQueries({ maxTexts: 3 });
    const texts = ['{ a: __typename }', '{ b: __typename }', '{ c: __typename }', '{ d: __typename }'];
    for (const text of texts.slice(0, 3)) known.remember(text, undefined, knownQuery(text));
    // Using the oldest makes the second the least recently used.
    expect(known.find(texts[0]!, undefined)).toBeDefined();
    known.remember(texts[3]!, undefined, knownQuery(texts[3]!));
    expect(known.size).toBe(3);
    expect(known.find(texts[1]!, undefined)).toBeUndefined();
    for (const text of [texts[0]!, texts[2]!, texts[3]!]) expect(known.find(text, undefined)).toBeDefined();
    for (let i = 0; i < 100; i++) known.remember(`{ x${i}: __typename }`, undefined, knownQuery('{ __typename }'));
    expect(known.size).toBe(3);
  });

  it('tells a held text in a body by its JSON bytes, wherever its string starts and however it is escaped', () => {
    const known = new KnownQueries({ maxTexts: 10 });
    const plain = '{ a: __typename }';
    // Quotes, a backslash before a quote, a backslash at the end, a line break, non-ASCII text.
    const tricky = 'query T { staffs(first: 1, filter: { staffId: "S-\\"1\\\\" }) { edges { node { employeeId } } } }\n# é \\';
    known.remember(plain, undefined, knownQuery(plain));
    known.remember(tricky, 'T', knownQuery(tricky.replace(/#.*$/s, ''), 'T'));
    for (const text of [plain, tricky]) {
      const encoded = JSON.stringify(text);
      for (const before of ['', '{"query":', '[1, {"x":']) {
        const body = Buffer.from(`${before}${encoded},"variables":{"a":"\\""}}`);
        expect(known.textAt(body, Buffer.byteLength(before))).toEqual({ text, end: Buffer.byteLength(before + encoded) });
      }
    }
    // Not a held text as an encoder writes it: another escape for the same text, another text of
    // the same length, a string cut short, anything but a string.
    const miss = (body: string, start = 0) => expect(known.textAt(Buffer.from(body), start)).toBeUndefined();
    miss(JSON.stringify(plain).replace(' ', '\\u0020'));
    miss(JSON.stringify(plain.replace('a', 'b')));
    miss(JSON.stringify(plain).slice(0, -1));
    miss(` ${JSON.stringify(plain)}`);
    miss(`x${JSON.stringify(plain)}`, 0);
    // A dropped text is not told any more.
    const small = new KnownQueries({ maxTexts: 1 });
    small.remember(plain, undefined, knownQuery(plain));
    small.remember('{ b: __typename }', undefined, knownQuery('{ b: __typename }'));
    expect(small.textAt(Buffer.from(JSON.stringify(plain)), 0)).toBeUndefined();
    expect(small.textAt(Buffer.from(JSON.stringify('{ b: __typename }')), 0)?.text).toBe('{ b: __typename }');
  });

  it('is bounded in the gateway as the compiled documents are', () => {
    expect(KNOWN_QUERIES.maxTexts).toBe(500);
  });
});

describe('the known queries’ lane and the cost limit', () => {
  /** A known query whose compiled run is only counted: the lane's decision is what is tested. */
  function countedQuery(text: string): { query: KnownQuery; runs: () => number } {
    const real = knownQuery(text);
    let runs = 0;
    const compiled = { ...real.compiled, query: () => (runs++, { data: {} }) };
    return { query: { ...real, compiled }, runs: () => runs };
  }
  const serverContext = { principal: { kind: 'test' } as unknown as Principal, requestId: 'r' } as ServerContext;
  const contextOf = graphqlContextOf({} as Services);

  it('hands back a known query whose page size, given as a variable, puts it over the limit', async () => {
    const text = 'query Page($n: Int) { staffs(first: $n) { edges { node { employeeId } } } }';
    const { query, runs } = countedQuery(text);
    const known = new KnownQueries({ maxTexts: 10 });
    known.remember(text, undefined, query);
    const maxCost = operationCost(schema, query.document, undefined, { n: 5 })!;
    const lane = knownQueryLane({ known, schema, maxCost, contextOf });
    expect(await lane({ query: text, variables: { n: 5 } }, serverContext)).toEqual({ data: {} });
    expect(await lane({ query: text, variables: { n: 6 } }, serverContext)).toBeUndefined();
    expect(runs()).toBe(1);
    expect(known.counts).toEqual({ answered: 1, handedBack: 1 });
  });

  it('runs a known query whose page sizes are written in its text, whatever its variables', async () => {
    const text = 'query One($id: Int!) { staffs(first: 5) { edges { node { employeeId } } } timesheet(timesheetId: $id) { timesheetId } }';
    const { query, runs } = countedQuery(text);
    const known = new KnownQueries({ maxTexts: 10 });
    known.remember(text, undefined, query);
    const maxCost = operationCost(schema, query.document, undefined, {})!;
    const lane = knownQueryLane({ known, schema, maxCost, contextOf });
    for (const id of [1, 2, 3]) expect(await lane({ query: text, variables: { id } }, serverContext)).toEqual({ data: {} });
    expect(runs()).toBe(3);
  });
});
