import { getVariableValues, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { scalarVariablesCoercer } from './scalar-variables.js';

/**
 * How a compiled query ran: its result when that result is graphql-js's, or why graphql-js must
 * answer instead: the variables were refused (graphql-js words the refusal), or the compiled
 * run threw or its result holds an error (graphql-js words, locates and masks errors).
 */
export type CompiledOutcome = ExecutionResult | 'variables refused' | 'failed';

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function outcomeOf(result: ExecutionResult): CompiledOutcome {
  return result.errors || !('data' in result) ? 'failed' : result;
}

/**
 * Runs a caller's compiled query the one way both of its callers need (compiled-caller-queries.ts
 * inside yoga's stage, known-query-lane.ts outside it): the variables are coerced as graphql-js
 * coerces them (by scalar-variables.ts when they are all built-in scalars and accepted, else by
 * graphql-js itself) and graphql-jit gets the coerced values, which it coerces to themselves
 * (compiled-documents.ts admits only such variable types). Only a result without any error is kept.
 */
export function runCompiled(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  compiled: CompiledQuery,
  contextValue: unknown,
  variableValues: Readonly<Record<string, unknown>> | null | undefined,
): CompiledOutcome | Promise<CompiledOutcome> {
  const inputs = variableValues ?? {};
  let coerced = scalarVariablesCoercer(schema, operation)?.(inputs);
  if (coerced === undefined) {
    const variables = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
    if (variables.errors) return 'variables refused';
    coerced = variables.coerced;
  }
  let result: ReturnType<CompiledQuery['query']>;
  try {
    result = compiled.query(undefined, contextValue, coerced);
  } catch {
    return 'failed';
  }
  if (isPromiseLike(result)) return Promise.resolve(result).then(outcomeOf, () => 'failed' as const);
  return outcomeOf(result);
}
