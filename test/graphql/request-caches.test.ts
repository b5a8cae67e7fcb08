import { contextCacheSymbol, createContextCache } from '@pothos/core';
import { getOperationAST, parse, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import type { Services } from '../../src/graphql/context.js';
import { KnownQueries } from '../../src/graphql/known-queries.js';
import { knownQueryLane } from '../../src/graphql/known-query-lane.js';
import { releaseRequestCaches, releaseRequestCachesPlugin } from '../../src/graphql/request-caches.js';
import { schema } from '../../src/graphql/schema.js';
import { graphqlContextOf, type ServerContext } from '../../src/graphql/yoga.js';
import type { Principal } from '../../src/shared/principal.js';

/**
 * The plugins' per-request caches (src/graphql/request-caches.ts): a context has a key of its own
 * for them, and releasing it after the request detaches every entry, so nothing the request
 * loaded stays reachable through the plugins' WeakMaps.
 */

const services = { marker: 'services' } as unknown as Services;
const principal = { kind: 'test' } as unknown as Principal;

describe('request caches', () => {
  it("gives each context its own key, which the plugins' caches use until the request is released", () => {
    const contextOf = graphqlContextOf(services);
    const cache = createContextCache(() => ({ loaded: [] as string[] }));
    const context = contextOf({ principal });
    const other = contextOf({ principal });
    expect(contextCacheSymbol in context).toBe(true);
    expect((context as never)[contextCacheSymbol]).not.toBe((other as never)[contextCacheSymbol]);

    const during = cache(context);
    expect(cache(context)).toBe(during);
    expect(cache(other)).not.toBe(during);
    releaseRequestCaches(context);
    // A new key: the old entry is no longer found, and nothing but the WeakMap points at the old key.
    expect(cache(context)).not.toBe(during);
  });

  it('leaves a context without a key of its own alone', () => {
    const context = { principal };
    releaseRequestCaches(context);
    expect(Object.getOwnPropertySymbols(context)).toEqual([]);
  });

  it("runs a known query with the caller's context alone, and releases its caches once answered", async () => {
    const text = '{ __typename }';
    const document = parse(text);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('does not compile');
    const seen: { context: Record<string | symbol, unknown>; key: unknown }[] = [];
    const recording: CompiledQuery = {
      ...compiled,
      query: (root, context, variables) => {
        const record = context as Record<string | symbol, unknown>;
        seen.push({ context: record, key: record[contextCacheSymbol] });
        return compiled.query(root, context, variables);
      },
    };
    const known = new KnownQueries({ maxTexts: 10 });
    known.remember(text, undefined, { document, operation: getOperationAST(document) as OperationDefinitionNode, compiled: recording });
    const lane = knownQueryLane({ known, schema, maxCost: 1000, contextOf: graphqlContextOf(services) });
    const serverContext = { principal, requestId: 'r-1', req: {}, res: {}, request: {}, params: {} } as unknown as ServerContext;

    const result = await lane({ query: text }, serverContext);
    expect(result).toEqual({ data: { __typename: 'Query' } });
    expect(seen).toHaveLength(1);
    const { context, key } = seen[0]!;
    expect(Object.keys(context).sort()).toEqual(['liveStream', 'principal', 'requestId', 'services']);
    expect(context.principal).toBe(principal);
    expect(context.requestId).toBe('r-1');
    expect(key).toBeDefined();
    expect(context[contextCacheSymbol]).not.toBe(key);
  });

  it("releases an operation's caches in yoga's stage once it has a result, and keeps a stream's", () => {
    const contextOf = graphqlContextOf(services);
    const plugin = releaseRequestCachesPlugin();
    type Hooks = { onExecuteDone(payload: { result: unknown }): void };
    const done = (context: object, result: unknown) => {
      const hooks = plugin.onExecute!({ args: { contextValue: context } } as never) as unknown as Hooks;
      hooks.onExecuteDone({ result });
    };
    const query = contextOf({ principal });
    const queryKey = (query as never)[contextCacheSymbol];
    done(query, { data: {} });
    expect((query as never)[contextCacheSymbol]).not.toBe(queryKey);

    const stream = contextOf({ principal });
    const streamKey = (stream as never)[contextCacheSymbol];
    done(stream, { async *[Symbol.asyncIterator]() {} });
    expect((stream as never)[contextCacheSymbol]).toBe(streamKey);
  });
});
