import { contextCacheSymbol } from '@pothos/core';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * The per-request caches of the schema's plugins (data loaders, scope results, node lookups) live
 * in WeakMaps keyed by the context's `contextCacheSymbol` property, else by the context itself.
 * Every cached value points back at the context (a loader calls its batch function with it), and
 * V8's young-generation collector keeps an entry alive while its value is reachable: keyed by the
 * context, a request's context, loaders and rows were promoted into the old generation, which then
 * needed full collections more often (an earlier bench round, in bench/README.md's git history).
 * A key of its own, replaced once the request is answered, dies at the next young collection with
 * its entries. A resolver that ran after the release would find empty caches and load again.
 */
type WithRequestCaches = { [contextCacheSymbol]: object };

/** The property a context is created with, so its plugin caches have a key of their own. */
export function requestCacheKey(): WithRequestCaches {
  return { [contextCacheSymbol]: {} };
}

/**
 * Releases an operation's caches once it has its result, whichever way it came (/graphql, a REST
 * route, a payload). A stream keeps them, since its events run with the same context until it ends.
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
