import { execute, subscribe } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * yoga's stage executes with graphql-js's own `execute` and `subscribe` (the `graphql` package the
 * schema is built with), not with the executor yoga ships (@graphql-tools/executor). The releases
 * of that executor which declare support for Node 20 put the fields a resolver answers with a
 * promise after the ones answered at once, so a response's keys could leave the order of the
 * selection set; graphql-js keeps it, as the GraphQL specification asks. What that executor adds
 * is not used here (no @defer/@stream); the one difference left is that an operation whose client
 * has gone away runs to its end instead of stopping between fields, which the work limits bound
 * (docs/decisions.md). A live stream still ends when its client goes: yoga returns its iterator.
 * This plugin must come before any plugin that wraps the execute function it finds
 * (compiled-caller-queries.ts), so that their fallback is this one.
 */
export function graphqlJsEngine(): Plugin {
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn(execute);
    },
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribe);
    },
  };
}
