import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GraphQLExecutor } from '../config.js';
import type { Principal } from '../shared/principal.js';
import type { GraphQLContext } from './context.js';
import { tagRequestId, type MaskError } from './error-masking.js';
import { releaseRequestCaches } from './request-caches.js';
import type { ServerContext, YogaApp } from './yoga.js';

/** One operation to run on behalf of a caller who is already authenticated. */
export interface OperationRequest {
  /** A checked-in document (schema/operations, or one built from them): trusted, so neither parsed nor validated again. */
  document: DocumentNode;
  variables?: Record<string, unknown>;
  operationName?: string;
  principal: Principal;
  /** Echoed in masked errors so a caller can quote it. */
  requestId?: string;
}

/** Runs one query or mutation and resolves with its result; errors are in the result, already masked. */
export type Execute = (request: OperationRequest) => Promise<ExecutionResult>;

/** How executorOf runs the read operations it is given (GRAPHQL_EXECUTOR, docs/operations.md). */
export interface ExecutorOptions {
  executor: GraphQLExecutor;
  /** The fixed operations to compile at start-up; only their query operations are compiled. */
  operations: readonly DocumentNode[];
  /** The maskError yoga was created with, so a compiled result is masked as yoga masks its own. */
  maskError: MaskError;
  /** yoga's context factory (yoga.ts graphqlContextOf), called directly for a compiled read. */
  contextOf: (serverContext: ServerContext) => GraphQLContext;
}

/** yoga's message for a masked error (its `maskedErrors.errorMessage` default, which yoga.ts keeps). */
const MASKED_MESSAGE = 'Unexpected error.';

/**
 * The one way a checked-in operation is run (REST routes, webhook and live-event payloads). The
 * standard executor is yoga's envelop pipeline, so the context factory, error masking and every
 * execute hook are the ones /graphql requests get. Documents a caller wrote to /graphql run
 * through runCallerOperation below (or yoga's own HTTP handling), which adds parsing, validation
 * and GraphQL Armor.
 *
 * The compiled executor (the default) runs the REST read operations through graphql-jit, each
 * compiled once here: the same context factory (yoga's, called directly), the same resolvers, the same maskError and
 * request-id tag. The only execute hook yoga's pipeline would add for these documents is the cost
 * limit, which leaves operations the gateway runs itself alone (cost.ts). Mutations, subscriptions
 * and every other document stay on the standard executor: graphql-jit coerces an absent variable
 * inside an input object to null, which only mutations bind.
 * test/graphql/compiled-executor.test.ts runs every REST operation through both and compares.
 */
export function executorOf(yoga: YogaApp, options?: ExecutorOptions): Execute {
  const standard = standardExecutor(yoga);
  if (!options || options.executor === 'standard') return standard;
  const compiled = compileReads(yoga, options.operations);
  const { maskError, contextOf } = options;
  return async (request) => {
    const read = compiled.get(request.document);
    if (!read || (request.operationName !== undefined && request.operationName !== read.name)) return standard(request);
    // What yoga's envelope would build: the server's context extended by the context factory,
    // its only context hook; without building the envelope's per-request functions.
    const serverContext: ServerContext = { principal: request.principal, requestId: request.requestId };
    const contextValue = Object.assign(serverContext, contextOf(serverContext));
    const result = await read.query.query(undefined, contextValue, request.variables ?? {});
    releaseRequestCaches(contextValue);
    // Without data the variables were refused before anything ran; an error without an original
    // is graphql-jit's own (a null in a non-null field, a value a scalar cannot serialise). Both
    // are worded and masked by graphql-js, so the standard executor answers them.
    if (!('data' in result) || result.errors?.some((error) => !error.originalError)) return standard(request);
    // graphql-jit locates errors where graphql-js would not, or elsewhere, in a document that carries source positions.
    if (result.errors && read.located) return standard(request);
    if (!result.errors) return result;
    const errors = result.errors.map((error) => maskError(asStandardError(error), MASKED_MESSAGE) as GraphQLError);
    tagRequestId(errors, request.requestId);
    return { errors, data: result.data };
  };
}

function standardExecutor(yoga: YogaApp): Execute {
  return async ({ document, variables, operationName, principal, requestId }) => {
    const { execute, contextFactory, schema } = yoga.getEnveloped({ principal, requestId });
    const contextValue = await contextFactory();
    const result = (await execute({
      schema,
      document,
      variableValues: variables,
      operationName,
      contextValue,
    })) as ExecutionResult;
    tagRequestId(result.errors as readonly GraphQLError[] | undefined, requestId);
    return result;
  };
}

interface CompiledRead {
  query: CompiledQuery;
  name: string | undefined;
  /** Whether the document carries source positions (one built by parsing text): its errors are graphql-js's to locate. */
  located: boolean;
}

function compileReads(yoga: YogaApp, operations: readonly DocumentNode[]): WeakMap<DocumentNode, CompiledRead> {
  const compiled = new WeakMap<DocumentNode, CompiledRead>();
  for (const document of operations) {
    const operation = getOperationAST(document);
    if (operation?.operation !== 'query') continue;
    const query = compileQuery(yoga.getEnveloped().schema, document, operation.name?.value);
    if (!isCompiledQuery(query)) {
      throw new Error(`operation ${operation.name?.value ?? '(anonymous)'} does not compile: ${query.errors?.map((e) => e.message).join('; ')}`);
    }
    compiled.set(document, { query, name: operation.name?.value, located: document.loc !== undefined });
  }
  return compiled;
}

/**
 * A resolver's error as graphql-js reports it. graphql-jit gives it an empty `locations` list
 * (the checked-in documents carry no source positions) where graphql-js leaves it out; the
 * message, path, extensions and original error are the same.
 */
function asStandardError(error: GraphQLError): GraphQLError {
  if (error.locations === undefined) return error;
  return new GraphQLError(error.message, { path: error.path, originalError: error.originalError, extensions: error.extensions });
}

/** The parameters of one operation sent to /graphql, already checked to have GraphQL over HTTP's shape. */
export interface CallerParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

/** The little of a Fetch Request that yoga's per-operation hooks read: the method and the headers. */
export interface RequestFacts {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
}

/** What running a caller's operation gives: a result, or a stream for a subscription. */
export type CallerResult = ExecutionResult | AsyncIterable<ExecutionResult>;

/**
 * Runs one operation a caller wrote, as sent to /graphql (src/graphql/http-transport.ts), with
 * yoga's own per-operation stage: its parameter checks, the context (with the request's
 * parameters, so the cost limit applies), parsing and validation with GraphQL Armor's rules
 * through yoga's document and validation caches, execution (a query compiled with graphql-jit
 * where it answers as graphql-js does, compiled-caller-queries.ts), and error masking. Only the
 * HTTP request and response around it are not yoga's.
 */
export function runCallerOperation(
  yoga: YogaApp,
  params: CallerParams,
  request: RequestFacts,
  serverContext: ServerContext,
): Promise<CallerResult> | CallerResult {
  // yoga types the request as a Fetch Request (its per-operation hooks read only the method and
  // headers) and an operation name as never null (its parameter check lets null through).
  const result = yoga.getResultForParams({ params: params as GraphQLParams, request: request as unknown as Request }, serverContext);
  return result as Promise<CallerResult> | CallerResult;
}
