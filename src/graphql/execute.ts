import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import type { Principal } from '../shared/principal.js';
import { tagRequestId } from './error-masking.js';
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

/**
 * The one way a checked-in operation is run (REST routes, webhook and live-event payloads):
 * through yoga's envelop pipeline, so the context factory, error masking and every execute hook
 * are the ones /graphql requests get. Documents a caller wrote to /graphql run through
 * runCallerOperation below (or yoga's own HTTP handling), which adds parsing, validation and
 * GraphQL Armor.
 */
export function executorOf(yoga: YogaApp): Execute {
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
 * through yoga's document and validation caches, execution, and error masking. Only the HTTP
 * request and response around it are not yoga's.
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
