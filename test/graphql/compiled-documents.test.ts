import { getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compilable, CompiledDocuments } from '../../src/graphql/compiled-documents.js';
import { schema } from '../../src/graphql/schema.js';

/**
 * The cache of callers' compiled queries (src/graphql/compiled-documents.ts): which operations it
 * compiles, and its bounds. test/graphql/transport-equality.test.ts compares what they answer.
 */

const operationOf = (text: string, name?: string) => {
  const document = parse(text);
  return { document, operation: getOperationAST(document, name) as OperationDefinitionNode };
};

const isCompilable = (text: string) => {
  const { document, operation } = operationOf(text);
  return compilable(schema, document, operation);
};

describe('compiled documents', () => {
  it.each([
    ['a query with scalar variables', 'query ($id: Int!, $n: Int, $s: String, $g: ID) { timesheet(timesheetId: $id) { timesheetId } staffs(first: $n, after: $s) { edges { cursor } } node(id: $g) { id } }'],
    ['a list variable of IDs', 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }'],
    ['@include with a non-null variable and literals', 'query ($w: Boolean!) { webhookEvents { event @include(if: $w) eventType @skip(if: false) } }'],
    ['fragments, aliases and __typename', '{ a: timesheet(timesheetId: 1) { ...F __typename } } fragment F on Timesheet { timesheetId }'],
    ['a list literal of scalars', '{ nodes(ids: ["a", "b"]) { id } }'],
  ])('compiles %s', (_name, text) => {
    expect(isCompilable(text)).toBe(true);
  });

  it.each([
    ['a mutation', 'mutation ($input: DeleteEventSubscriptionInput!) { deleteEventSubscription(input: $input) { deletedSubscriptionId } }'],
    ['a subscription', 'subscription { events { event } }'],
    ['an input object variable', 'query ($f: StaffFilter) { staffs(filter: $f) { edges { cursor } } }'],
    ['a custom scalar variable', 'query ($from: DateTime) { timesheets(filter: { from: $from }) { edges { cursor } } }'],
    ['an input object literal', '{ staffs(filter: { staffId: "S-1" }) { edges { cursor } } }'],
    ['a variable inside an input object literal', 'query ($s: String) { staffs(filter: { staffId: $s }) { edges { cursor } } }'],
    ['a variable inside a list literal', 'query ($id: ID!) { nodes(ids: [$id]) { id } }'],
    ['__schema', '{ __schema { queryType { name } } }'],
    ['__type', '{ __type(name: "Staff") { name } }'],
    ['@skip with a variable that may be null', 'query ($s: Boolean = false) { webhookEvents { event @skip(if: $s) } }'],
    ['another directive', '{ webhookEvents { event @deprecated } }'],
  ])('leaves %s to graphql-js', (_name, text) => {
    expect(isCompilable(text)).toBe(false);
  });

  it('compiles a document once per operation and reuses it', () => {
    const documents = new CompiledDocuments(schema, { maxDocuments: 10, maxDocumentLength: 10_000, compileAfter: 1 });
    const { document, operation } = operationOf('query A { webhookEvents { event } } query B { __typename }', 'A');
    const first = documents.compiled(document, operation);
    expect(first).toBeDefined();
    expect(documents.compiled(document, operation)).toBe(first);
    const other = documents.compiled(document, getOperationAST(document, 'B')!);
    expect(other).toBeDefined();
    expect(other).not.toBe(first);
    expect(documents.size).toBe(1);
  });

  it('holds at most maxDocuments documents, dropping the least recently used', () => {
    const documents = new CompiledDocuments(schema, { maxDocuments: 3, maxDocumentLength: 10_000, compileAfter: 1 });
    const kept = operationOf('{ __typename }');
    documents.compiled(kept.document, kept.operation);
    for (let i = 0; i < 50; i++) {
      const { document, operation } = operationOf(`{ a${i}: __typename }`);
      expect(documents.compiled(document, operation)).toBeDefined();
      // Used again every time, so it is never the least recently used.
      const again = documents.compiled(kept.document, kept.operation);
      expect(documents.size).toBeLessThanOrEqual(3);
      expect(again).toBeDefined();
    }
    expect(documents.size).toBe(3);
    // A document that was dropped is compiled anew when it comes back.
    const dropped = operationOf('{ a0: __typename }');
    expect(documents.compiled(dropped.document, dropped.operation)).toBeDefined();
    expect(documents.size).toBe(3);
  });

  it('compiles an operation only once it has run compileAfter times', () => {
    const documents = new CompiledDocuments(schema, { maxDocuments: 10, maxDocumentLength: 10_000, compileAfter: 3 });
    const { document, operation } = operationOf('{ webhookEvents { event } }');
    expect(documents.compiled(document, operation)).toBeUndefined();
    expect(documents.compiled(document, operation)).toBeUndefined();
    const compiled = documents.compiled(document, operation);
    expect(compiled).toBeDefined();
    expect(documents.compiled(document, operation)).toBe(compiled);
    // Never compiled, however often it runs.
    const mutation = operationOf('mutation ($input: DeleteEventSubscriptionInput!) { deleteEventSubscription(input: $input) { deletedSubscriptionId } }');
    for (let i = 0; i < 5; i++) expect(documents.compiled(mutation.document, mutation.operation)).toBeUndefined();
  });

  it('does not compile a document longer than maxDocumentLength', () => {
    const documents = new CompiledDocuments(schema, { maxDocuments: 3, maxDocumentLength: 40, compileAfter: 1 });
    const short = operationOf('{ __typename }');
    const long = operationOf(`{ __typename ${' '.repeat(40)}}`);
    expect(documents.compiled(short.document, short.operation)).toBeDefined();
    expect(documents.compiled(long.document, long.operation)).toBeUndefined();
  });
});
