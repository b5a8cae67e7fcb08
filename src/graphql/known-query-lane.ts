import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context.js';
import { runCompiled, type CompiledOutcome } from './compiled-run.js';
import { costOverLimit, costReadsVariables } from './cost.js';
import type { CallerParams } from './execute.js';
import type { KnownQueries, KnownQuery } from './known-queries.js';
import { releaseRequestCaches } from './request-caches.js';
import type { ServerContext } from './yoga.js';

export interface KnownQueryLaneOptions {
  known: KnownQueries;
  schema: GraphQLSchema;
  /** GRAPHQL_MAX_COST: a request over it is handed back, for yoga's stage to refuse (cost.ts). */
  maxCost: number;
  /** yoga's context factory (yoga.ts), so resolvers get the same context either way. */
  contextOf: (serverContext: ServerContext) => GraphQLContext;
}

/**
 * Answers a request for a known query (known-queries.ts), or resolves undefined, having written
 * nothing, for yoga's per-operation stage to answer it.
 */
export type KnownQueryLane = (params: CallerParams, serverContext: ServerContext) => Promise<ExecutionResult | undefined> | undefined;

/**
 * The known queries' own lane through /graphql. yoga's stage parses and validates a text once
 * per text (its caches), and around execution runs hooks that only act on a failure (masking,
 * the request id, the refusals' statuses) or on what a known query cannot be (a mutation over
 * GET, a subscription). What it does for every request is what this lane does, in its order:
 *
 * 1. the cost, with the request's variables, is checked against the limit (cost.ts); over it goes back to yoga's stage, which refuses it.
 *    A query whose list lengths (page sizes, cursors, id lists) are all written in its text costs the same with any variables, and
 *    was within the limit when yoga's stage first ran it, so only the others are counted again;
 * 2. the context is built by yoga's context factory from the caller and the request id, as the
 *    REST reads build theirs (execute.ts); the node request and response, and the parameters,
 *    which yoga adds for its own hooks, are left out: no resolver reads them, and a context that
 *    holds them keeps them alive through the plugins' caches (request-caches.ts);
 * 3. the compiled operation runs as compiled-caller-queries.ts runs it (compiled-run.ts): graphql-js
 *    coerces the variables first, and refused ones go back to yoga's stage, which words the refusal.
 *
 * A result with any error, or a throw, is handed back as well: yoga's stage runs the operation
 * again and answers it, so an error is always worded, located and masked by graphql-js and yoga.
 * test/graphql/transport-equality.test.ts sends its corpus through the lane and compares each
 * answer with yoga's to the byte.
 */
export function knownQueryLane(options: KnownQueryLaneOptions): KnownQueryLane {
  const { known, schema, maxCost, contextOf } = options;
  const settle = (contextValue: object, outcome: CompiledOutcome): ExecutionResult | undefined => {
    releaseRequestCaches(contextValue);
    if (typeof outcome === 'string') {
      known.counts.handedBack++;
      return undefined;
    }
    known.counts.answered++;
    return outcome;
  };
  /** Per known query: whether its cost depends on the variables (a list length given as one); if not, it was within the limit when it first ran. */
  const costVaries = new WeakMap<KnownQuery, boolean>();
  const overLimit = (query: KnownQuery, params: CallerParams): boolean => {
    let varies = costVaries.get(query);
    if (varies === undefined) {
      varies = costReadsVariables(schema, query.document);
      costVaries.set(query, varies);
    }
    return varies && costOverLimit(schema, query.document, params.operationName, params.variables, maxCost) !== undefined;
  };
  return (params, serverContext) => {
    const query = known.find(params.query, params.operationName);
    if (!query) return undefined;
    // Over the limit is refused by yoga's stage, so the request is handed back like a failure.
    if (overLimit(query, params)) {
      known.counts.handedBack++;
      return Promise.resolve(undefined);
    }
    const base: ServerContext = { principal: serverContext.principal, requestId: serverContext.requestId };
    const contextValue = Object.assign(base, contextOf(serverContext));
    const outcome = runCompiled(schema, query.operation, query.compiled, contextValue, params.variables);
    return outcome instanceof Promise ? outcome.then((done) => settle(contextValue, done)) : Promise.resolve(settle(contextValue, outcome));
  };
}
