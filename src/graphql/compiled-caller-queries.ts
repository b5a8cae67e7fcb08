import { getOperationAST, OperationTypeNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isCallerDocument } from './caller-document.js';
import type { CompiledDocuments } from './compiled-documents.js';
import { runCompiled, type CompiledOutcome } from './compiled-run.js';
import type { KnownQueries } from './known-queries.js';

type ExecuteFn = (args: ExecutionArgs) => unknown;

/** The parameters yoga puts in a caller's context: the text sent and the operation name. */
function callerParamsOf(context: unknown): { query: string; operationName?: string | null } | undefined {
  const params = (context as { params?: { query?: unknown; operationName?: unknown } }).params;
  if (typeof params?.query !== 'string') return undefined;
  const { operationName } = params;
  return { query: params.query, operationName: typeof operationName === 'string' ? operationName : operationName === null ? null : undefined };
}

/**
 * Runs the queries callers send to /graphql with graphql-jit, compiled once per document
 * (compiled-documents.ts), in place of yoga's executor and nowhere else in yoga's per-operation
 * stage: parsing, validation, GraphQL Armor, the cost check, the context and error masking are
 * the same. A compiled query answers only when its result is graphql-js's:
 *
 * - the variables are coerced by graphql-js first, and graphql-jit is given its coerced values
 *   (which it coerces to themselves, compiled-documents.ts checks the types); when graphql-js
 *   refuses them, the standard executor runs and words the refusal;
 * - a result with any error (a resolver's, a null in a non-null field, a value a scalar cannot
 *   serialise, a type a Node cannot be resolved to) is dropped and the standard executor runs the
 *   operation again, with the same context, so errors, their order and locations and the data
 *   around them are graphql-js's. Queries only read, so running one twice changes nothing but
 *   the time an error takes.
 */
export function compiledCallerQueries(schema: GraphQLSchema, documents: CompiledDocuments, known?: KnownQueries): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isCallerDocument(args.contextValue)) return;
      const standard = executeFn as ExecuteFn;
      setExecuteFn(((executionArgs: ExecutionArgs) => {
        const operation = getOperationAST(executionArgs.document, executionArgs.operationName);
        if (operation?.operation !== OperationTypeNode.QUERY || executionArgs.schema !== schema) return standard(executionArgs);
        const compiled = documents.compiled(executionArgs.document, operation);
        if (!compiled) return standard(executionArgs);
        const settle = (outcome: CompiledOutcome) => {
          if (outcome === 'variables refused') return standard(executionArgs);
          if (outcome === 'failed') {
            documents.counts.retried++;
            return standard(executionArgs);
          }
          documents.counts.compiled++;
          // Parsed, validated and run without an error: the text is known from now on.
          const params = known && callerParamsOf(executionArgs.contextValue);
          if (params) known?.remember(params.query, params.operationName, { document: executionArgs.document, operation, compiled });
          return outcome;
        };
        const outcome = runCompiled(schema, operation, compiled, executionArgs.contextValue, executionArgs.variableValues);
        return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
      }) as typeof executeFn);
    },
  };
}
