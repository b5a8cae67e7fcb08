import {
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  Kind,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { schema as graphqlSchema } from '../../graphql/schema.js';
import { bodyVariables, operationOf } from '../adapter.js';
import type { QueryParam } from '../params.js';
import { routes as routeTable, type RestRoute } from '../routes.js';
import { TOKEN_DATA_SCHEMA, TOKEN_PATH, TOKEN_REQUEST_SCHEMA } from '../token-route.js';
import { ENVELOPE_COMPONENTS, failureResponse, headerComponents, responseRef, SECURITY_SCHEMES, successResponse } from './components.js';
import { SelectionSchemas, type JsonSchema } from './selection-schema.js';

/** The version of the REST contract the document describes. */
const API_VERSION = '1.0.0';

/** Failure statuses every route can answer, whatever it does. */
const EVERY_ROUTE = [400, 401, 408, 413, 414, 415, 429, 431, 500, 503];

/** Record id of the path, as src/rest/params.ts reads it. */
const PATH_ID: JsonSchema = { type: 'integer', minimum: 1 };

const QUERY_SCHEMAS: Record<QueryParam['kind'], JsonSchema> = {
  id: PATH_ID,
  pageSize: PATH_ID,
  dateTime: { type: 'string', format: 'date-time' },
  text: { type: 'string' },
  cursor: { type: 'string' },
};

function queryParameter({ name, kind, description, maximum, default: byDefault }: QueryParam): JsonSchema {
  const schema = { ...QUERY_SCHEMAS[kind], ...(maximum ? { maximum } : {}), ...(byDefault ? { default: byDefault } : {}) };
  return { name, in: 'query', required: false, description, schema };
}

/** Descriptions of the input fields (or arguments) each variable of an operation feeds. */
function variableDescriptions(schema: GraphQLSchema, route: RestRoute): Map<string, string> {
  const operation = operationOf(route);
  const root = schema.getRootType(operation.operation) as GraphQLObjectType;
  const descriptions = new Map<string, string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = root.getFields()[selection.name.value];
    for (const argument of selection.arguments ?? []) {
      const definition = field?.args.find((a) => a.name === argument.name.value);
      if (!definition) continue;
      if (argument.value.kind === Kind.VARIABLE && definition.description) descriptions.set(argument.value.name.value, definition.description);
      const inputType = getNamedType(definition.type);
      if (argument.value.kind !== Kind.OBJECT || !isInputObjectType(inputType)) continue;
      for (const objectField of argument.value.fields) {
        const description = inputType.getFields()[objectField.name.value]?.description;
        if (objectField.value.kind === Kind.VARIABLE && description) descriptions.set(objectField.value.name.value, description);
      }
    }
  }
  return descriptions;
}

function requestBody(schema: GraphQLSchema, route: RestRoute, walker: SelectionSchemas): JsonSchema | undefined {
  if (route.body !== 'json') return undefined;
  const descriptions = variableDescriptions(schema, route);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const variable of bodyVariables(route)) {
    const name = variable.variable.name.value;
    const type = typeFromAST(schema, variable.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`${route.path}: unknown type of $${name}`);
    const description = descriptions.get(name);
    properties[name] = { ...(description ? { description } : {}), ...walker.valueSchema(type) };
    if (isNonNullType(type)) required.push(name);
  }
  return {
    required: true,
    content: { 'application/json': { schema: { type: 'object', properties, required, additionalProperties: false } } },
  };
}

/**
 * The schema of a route's `data`, from its operation's selections (src/rest/adapter.ts, shapeResult;
 * DataShape). Its record is registered under its GraphQL type's name, qualified by the operation's
 * when another selection of that type differs.
 */
function dataSchema(schema: GraphQLSchema, route: RestRoute, walker: SelectionSchemas, records: Record<string, JsonSchema>): JsonSchema {
  const operation = operationOf(route);
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`the schema has no ${operation.operation} type`);
  const at = walker.follow(root, operation.selectionSet.selections, route.data.at);
  const recordAt = route.data.shape === 'edges' || route.data.shape === 'page' ? walker.follow(at.type, at.selections, ['edges', 'node']) : at;
  const type = getNamedType(recordAt.type);
  if (!isObjectType(type) && !isInterfaceType(type)) throw new Error(`${route.path}: data is not an object`);
  const record = walker.objectSchema(type, recordAt.selections);
  let name = type.name;
  if (records[name] && JSON.stringify(records[name]) !== JSON.stringify(record)) name = `${operation.name?.value ?? ''}${name}`;
  records[name] = record;
  const ref = { $ref: `#/components/schemas/${name}` };
  return route.data.shape === 'record' ? ref : { type: 'array', items: ref };
}

function failureStatuses(route: RestRoute): number[] {
  const statuses = new Set(EVERY_ROUTE);
  if (route.keyType !== 'either') statuses.add(403);
  // A record named in the path or the body may be missing or outside the key's scope.
  if (route.path.includes(':') || route.body === 'json') statuses.add(404);
  if (route.conflict) statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

function routeOperation(schema: GraphQLSchema, route: RestRoute, records: Record<string, JsonSchema>): JsonSchema {
  const operation = operationOf(route);
  const operationName = operation.name?.value;
  const walker = new SelectionSchemas(route.operation);
  const paged = route.data.shape === 'page';
  const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    description: 'A record id: a positive integer (one beyond the 32-bit id space names no record: 404).',
    schema: PATH_ID,
  }));
  const headerParams = (route.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: false,
    description: h.description,
    schema: { type: 'string', pattern: h.pattern.source },
  }));
  const body = requestBody(schema, route, walker);
  const responses: Record<string, unknown> = {
    [String(route.successStatus)]: successResponse(route.successStatus, dataSchema(schema, route, walker, records), paged, true),
  };
  for (const status of failureStatuses(route)) {
    responses[String(status)] = status === 409 ? failureResponse(409, route.conflict) : responseRef(status);
  }
  const description = [
    route.keyType === 'either' ? 'Any KeyType.' : `KeyType \`${route.keyType}\` only; another is 403.`,
    `Runs the GraphQL operation \`${operationName ?? ''}\` (schema/operations/).`,
    ...(paged ? ['A page parameter may also be sent as the body of the same GET.'] : []),
  ].join(' ');
  return {
    operationId: operationName,
    summary: route.summary,
    description,
    tags: [route.path.split('/')[2]],
    security: [{ subscriptionKey: [], bearerToken: [] }],
    parameters: [...pathParams, ...route.query.map(queryParameter), ...headerParams],
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

function tokenOperation(): JsonSchema {
  const responses: Record<string, unknown> = { '200': successResponse(200, TOKEN_DATA_SCHEMA, false, false) };
  for (const status of EVERY_ROUTE) responses[String(status)] = responseRef(status);
  responses['401'] = failureResponse(401, 'Missing or wrong subscription key, or an unknown or revoked API key.');
  responses['429'] = failureResponse(
    429,
    'Too many token requests from this client address, or too many refused API keys with this prefix; Retry-After says when to try again.',
  );
  return {
    operationId: 'requestToken',
    summary: 'Exchange an API key for an access token',
    description: 'The one route without a bearer token. Only POST is allowed (another method is 405).',
    tags: ['external'],
    security: [{ subscriptionKey: [] }],
    requestBody: { required: true, content: { 'application/json': { schema: TOKEN_REQUEST_SCHEMA } } },
    responses,
  };
}

/** `/api/x/:id` as an OpenAPI path template, `/api/x/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

const byName = <T>(entries: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));

/**
 * The OpenAPI 3.1 document of the REST API, generated from the route table, the token route and
 * the GraphQL schema the operations run against: nothing in it is written beside them.
 */
export function openApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[]): JsonSchema {
  const records: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = { [TOKEN_PATH]: { post: tokenOperation() } };
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = routeOperation(schema, route, records);
  }
  const statuses = [...new Set([...EVERY_ROUTE, 403, 404])].sort((a, b) => a - b);
  return {
    openapi: '3.1.0',
    info: {
      title: 'shiftgate REST API',
      version: API_VERSION,
      description:
        'The REST paths of shiftgate. Every route runs a named GraphQL operation, so REST and GraphQL (`/graphql`) answer from the same resolvers. Every response, success or failure, is one JSON envelope whose `status.code` equals the HTTP status. An unknown path is 404 and a method a path does not take is 405 (with `Allow`), both in the same envelope.',
    },
    tags: [
      { name: 'external', description: 'Tokens, staff, licenses, timesheets, customers and sites.' },
      { name: 'webhook', description: 'Webhook subscriptions, the event catalog and the delivery log.' },
    ],
    paths: byName(paths),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: { ...ENVELOPE_COMPONENTS, ...byName(records) },
      // One named response per failure status.
      responses: Object.fromEntries(statuses.map((status) => [`Status${status}`, failureResponse(status)])),
      headers: headerComponents(),
    },
  };
}

/** The OpenAPI document as served at /openapi.json and committed as schema/openapi.json. */
export function printedOpenApi(): string {
  return `${JSON.stringify(openApiDocument(graphqlSchema, routeTable), null, 2)}\n`;
}
