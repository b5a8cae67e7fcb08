import { getVariableValues, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context.js';
import { operationCost } from './cost.js';
import type { CallerParams, RequestFacts } from './execute.js';
import type { KnownQueries } from './known-queries.js';
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
export type KnownQueryLane = (params: CallerParams, request: RequestFacts, serverContext: ServerContext) => Promise<ExecutionResult | undefined> | undefined;

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The known queries' own lane through /graphql. yoga's stage parses and validates a text once
 * per text (its caches), and around execution runs hooks that only act on a failure (masking,
 * the request id, the refusals' statuses) or on what a known query cannot be (a mutation over
 * GET, a subscription). What it does for every request is what this lane does, in its order:
 *
 * 1. the variables are coerced by graphql-js; refused ones go back to yoga's stage, which words the refusal;
 * 2. the cost, with these variables, is checked against the limit (cost.ts); over it goes back too;
 * 3. the context is yoga's: the server's, the request and its parameters, then the context factory's fields;
 * 4. the compiled operation runs with graphql-js's coerced values, as compiled-caller-queries.ts runs it.
 *
 * A result with any error, or a throw, is handed back as well: yoga's stage runs the operation
 * again and answers it, so an error is always worded, located and masked by graphql-js and yoga.
 * The answer's status, headers and body are made by yoga's result stage, as for every request the
 * transport takes (http-transport.ts). test/graphql/transport-equality.test.ts sends its corpus
 * through the lane and compares each answer with yoga's to the byte.
 */
export function knownQueryLane(options: KnownQueryLaneOptions): KnownQueryLane {
  const { known, schema, maxCost, contextOf } = options;
  const handBack = (): undefined => {
    known.counts.handedBack++;
    return undefined;
  };
  const settle = (result: ExecutionResult): ExecutionResult | undefined => {
    if (result.errors || !('data' in result)) return handBack();
    known.counts.answered++;
    return result;
  };
  return (params, request, serverContext) => {
    const query = known.find(params.query, params.operationName);
    if (!query) return undefined;
    const variables = getVariableValues(schema, query.operation.variableDefinitions ?? [], params.variables ?? {});
    if (variables.errors) return handBack();
    const cost = operationCost(schema, query.document, params.operationName, params.variables);
    if (cost === undefined || cost > maxCost) return handBack();
    // yoga adds the request and its parameters to the server's context, then the factory's fields.
    const contextValue = Object.assign(serverContext, { request, params });
    Object.assign(contextValue, contextOf(contextValue));
    let result: ReturnType<typeof query.compiled.query>;
    try {
      result = query.compiled.query(undefined, contextValue, variables.coerced);
    } catch {
      return handBack();
    }
    if (isPromiseLike(result)) return Promise.resolve(result).then(settle, handBack);
    return Promise.resolve(settle(result));
  };
}
