import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, type DocumentNode, type ExecutionResult, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import { sendJson } from '../http/respond.js';
import { httpAnswerOf, tagRequestId } from '../observability/graphql-errors.js';
import type { ServerContext, YogaApp } from './yoga.js';

interface GraphQLParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function paramsOf(body: Buffer): GraphQLParams | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (!isPlainObject(parsed) || typeof parsed.query !== 'string') return null;
  const { variables, operationName } = parsed;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  for (const key of Object.keys(parsed)) {
    if (key !== 'query' && key !== 'variables' && key !== 'operationName' && key !== 'extensions') return null;
  }
  return { query: parsed.query, variables: variables as GraphQLParams['variables'], operationName: operationName as GraphQLParams['operationName'] };
}

/** Only plain JSON answers are taken here; graphql-response+json, SSE and multipart stay with yoga. */
function acceptsPlainJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '' || accept === '*/*') return true;
  return accept.includes('application/json') && !/graphql-response|event-stream|multipart/i.test(accept);
}

function selectedOperation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name) return operations.find((op) => op.name?.value === name);
  return operations.length === 1 ? operations[0] : undefined;
}

/**
 * The common case of /graphql — one query or mutation POSTed as JSON — run through yoga's own
 * envelop pipeline (its parse and validation caches, GraphQL Armor rules, error masking and
 * context factory), as the REST adapter does, without yoga's Fetch-API request and response
 * objects, which cost more than the execution itself. Anything else (batches, subscriptions,
 * documents that do not parse, validate or coerce their variables, other media types) returns
 * false and is left to yoga, so every unusual answer keeps yoga's exact shape and status.
 */
export async function tryGraphQLFastLane(
  yoga: YogaApp,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  serverContext: ServerContext & { requestId?: string },
): Promise<boolean> {
  if (req.method !== 'POST' || !acceptsPlainJson(req.headers.accept)) return false;
  const params = paramsOf(body);
  if (!params) return false;
  const { parse, validate, contextFactory, execute, schema } = yoga.getEnveloped(serverContext);
  let document: DocumentNode;
  try {
    document = parse(params.query);
  } catch {
    return false;
  }
  const operation = selectedOperation(document, params.operationName);
  if (!operation || operation.operation === 'subscription') return false;
  if (validate(schema, document).length > 0) return false;
  const contextValue = await contextFactory();
  const result = (await execute({
    schema,
    document,
    variableValues: params.variables ?? undefined,
    operationName: params.operationName ?? undefined,
    contextValue,
  })) as ExecutionResult;
  // No data at all means the request was refused before execution (variables that do not
  // coerce): nothing ran, so yoga may answer it in its own shape and status.
  if (!('data' in result)) return false;
  tagRequestId(result.errors as readonly GraphQLError[] | undefined, serverContext.requestId);
  const answer = httpAnswerOf(result);
  sendJson(res, answer.status, answer.body, answer.headers);
  return true;
}
