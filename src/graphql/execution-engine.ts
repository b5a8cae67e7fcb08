import { execute, subscribe, type ExecutionArgs, type ExecutionResult, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * yoga's stage executes with graphql-js's own `execute` and `subscribe` (the `graphql` package the
 * schema is built with), not with the executor yoga ships (@graphql-tools/executor). The releases
 * of that executor which declare support for Node 20 put the fields a resolver answers with a
 * promise after the ones answered at once, so a response's keys could leave the order of the
 * selection set; graphql-js keeps it, as the GraphQL specification asks.
 *
 * Both word every error alike. What the bundled executor adds to a request error (one raised
 * before anything runs: a variable that does not fit its type, an operation that cannot be
 * chosen, told by having no path) is added here in the same way: the HTTP status 400, which yoga
 * answers with and leaves out of the body, and the codes it gives them. Nothing else it adds is
 * used here (no @defer/@stream). The one difference left: an operation whose client has gone away
 * runs to its end instead of stopping between fields, which the work limits bound
 * (docs/decisions.md); a live stream still ends when its client goes, as yoga returns its iterator.
 *
 * This plugin must come before any plugin that wraps the execute function it finds
 * (compiled-caller-queries.ts), so that their fallback is this one.
 */
export function graphqlJsEngine(): Plugin {
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn(executeMarkingRequestErrors);
    },
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribeMarkingRequestErrors);
    },
  };
}

const OPERATION_RESOLUTION_FAILURE = 'OPERATION_RESOLUTION_FAILURE';

export function executeMarkingRequestErrors(args: ExecutionArgs): ReturnType<typeof execute> {
  const result = execute(args);
  // graphql-js answers a request error at once, without data.
  if (!(result instanceof Promise)) markRequestErrors(result, (error) => (error.message.startsWith('Variable "$') ? undefined : OPERATION_RESOLUTION_FAILURE));
  return result;
}

export async function subscribeMarkingRequestErrors(args: ExecutionArgs): ReturnType<typeof subscribe> {
  const result = await subscribe(args);
  if (!(Symbol.asyncIterator in result)) markRequestErrors(result, () => 'BAD_USER_INPUT');
  return result;
}

/** Adds the status 400, and the code `codeOf` names, to each error of a result refused before anything ran. */
function markRequestErrors(result: ExecutionResult, codeOf: (error: GraphQLError) => string | undefined): void {
  if ('data' in result || !result.errors) return;
  for (const error of result.errors) {
    // A resolver's error (a subscription's source failing) has a path; a request error has none.
    if (error.path !== undefined) continue;
    const http = { ...(error.extensions.http as Record<string, unknown> | undefined), status: 400 };
    const code = codeOf(error);
    Object.defineProperty(error, 'extensions', { value: { ...error.extensions, ...(code ? { code } : {}), http } });
  }
}
