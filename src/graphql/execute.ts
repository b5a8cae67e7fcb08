import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import type { Principal } from '../shared/principal.js';
import { tagRequestId } from './error-masking.js';
import type { YogaApp } from './yoga.js';

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
 * The one way an operation is run outside yoga's own HTTP handling (REST routes, webhook and
 * live-event payloads): through yoga's envelop pipeline, so the context factory, error masking
 * and every execute hook are the ones /graphql requests get. /graphql itself is served by yoga
 * alone, which runs the same pipeline and adds parsing, validation and GraphQL Armor for
 * documents a caller wrote.
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
