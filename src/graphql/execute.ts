import type { DocumentNode, ExecutionResult } from 'graphql';
import type { Principal } from '../shared/principal.js';
import type { ServerContext, YogaApp } from './yoga.js';

/** One operation to run on behalf of a caller who is already authenticated. */
export interface OperationRequest extends Pick<ServerContext, 'requestId'> {
  /** A checked-in document (schema/operations, or one built from them): trusted, so neither parsed nor validated again. */
  document: DocumentNode;
  variables?: Record<string, unknown>;
  operationName?: string;
  principal: Principal;
}

/** Runs one query or mutation and resolves with its result; errors are in the result, already masked. */
export type Execute = (request: OperationRequest) => Promise<ExecutionResult>;

/**
 * How the gateway runs its own checked-in operations (REST routes, webhook and live-event payloads): through
 * yoga's envelop pipeline, without parsing and validation; with no request parameters, the cost limit leaves them alone (cost.ts).
 */
export function executorOf(yoga: YogaApp): Execute {
  return async ({ document, variables, operationName, principal, requestId }) => {
    const { execute, contextFactory, schema } = yoga.getEnveloped({ principal, requestId });
    const contextValue = await contextFactory();
    return (await execute({ schema, document, variableValues: variables, operationName, contextValue })) as ExecutionResult;
  };
}
