import { getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { KNOWN_QUERIES, KnownQueries, type KnownQuery } from '../../src/graphql/known-queries.js';
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

  it('is bounded in the gateway as the compiled documents are', () => {
    expect(KNOWN_QUERIES.maxTexts).toBe(500);
  });
});
