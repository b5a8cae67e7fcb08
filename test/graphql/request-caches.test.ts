import { contextCacheSymbol, createContextCache } from '@pothos/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Services } from '../../src/graphql/context.js';
import { createYogaApp } from '../../src/graphql/yoga.js';
import type { Principal } from '../../src/shared/principal.js';

/**
 * The plugins' per-request caches (src/graphql/yoga.ts): a context has a key of its own
 * for them, and the pipeline replaces it once the operation has its result, so nothing the
 * request loaded stays reachable through the plugins' WeakMaps. A stream keeps its key.
 */

const services = { marker: 'services' } as unknown as Services;
const principal = { keyId: 1, keyType: 'developer', companyId: 1, customerIds: [], siteIds: [] } as Principal;

describe('request caches', () => {
  const yoga = createYogaApp(services, { limits: loadConfig({}).limits.graphql, jit: false });

  it("gives each context its own key, which the plugins' caches use until the operation has its result", async () => {
    const { contextFactory, execute, schema } = yoga.getEnveloped({ principal });
    const context = (await contextFactory()) as Record<symbol, unknown>;
    const other = (await yoga.getEnveloped({ principal }).contextFactory()) as Record<symbol, unknown>;
    expect(context[contextCacheSymbol]).toBeDefined();
    expect(context[contextCacheSymbol]).not.toBe(other[contextCacheSymbol]);

    const cache = createContextCache(() => ({ loaded: [] as string[] }));
    const during = cache(context);
    expect(cache(context)).toBe(during);
    expect(cache(other)).not.toBe(during);
    expect(await execute({ schema, document: parse('{ __typename }'), contextValue: context })).toEqual({ data: { __typename: 'Query' } });
    // A new key: the old entry is no longer found, and nothing but the WeakMap points at the old key.
    expect(cache(context)).not.toBe(during);
  });

  it("keeps a stream's key while its events run", async () => {
    const { contextFactory, subscribe, schema } = yoga.getEnveloped({ principal });
    const context = (await contextFactory()) as Record<symbol, unknown>;
    const key = context[contextCacheSymbol];
    // Refused before it starts (no live stream was admitted), so the stream ends at once; the key stays.
    await subscribe({ schema, document: parse('subscription { events { type } }'), contextValue: context });
    expect(context[contextCacheSymbol]).toBe(key);
  });
});
