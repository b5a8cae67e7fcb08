import { contextCacheSymbol } from '@pothos/core';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * The per-request caches of the schema's plugins (data loaders, scope results, node lookups) are
 * kept in WeakMaps owned by the plugins, keyed by the context's `contextCacheSymbol` property
 * when it has one, else by the context itself.
 *
 * V8's young-generation collector keeps a WeakMap entry whose key is young alive as long as its
 * value is reachable, and every cached value points back at the context (a loader calls its
 * batch function with it). A context used as the key therefore outlives its request until the
 * next full collection: the context, its loaders and their rows (and whatever else the context
 * holds) are copied through the young generation and promoted into the old one, which then
 * needs full collections more often (an earlier bench round, in bench/README.md's git history).
 *
 * Giving the context a key of its own, and a new one once the request is answered, lets the old
 * key die at the next young collection, and the entries with it. A resolver that ran after the
 * release would find empty caches and load again: correct, only slower.
 */
export interface WithRequestCaches {
  [contextCacheSymbol]: object;
}

/** The property a context is created with, so its plugin caches have a key of their own. */
export function requestCacheKey(): WithRequestCaches {
  return { [contextCacheSymbol]: {} };
}

/**
 * Once an operation has its result, whichever way it came (/graphql, a REST route, a payload),
 * its caches are released. A stream keeps them, since its events run with the same context
 * until it ends.
 */
export function releaseRequestCachesPlugin(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) (args.contextValue as unknown as WithRequestCaches)[contextCacheSymbol] = {};
        },
      };
    },
  };
}
