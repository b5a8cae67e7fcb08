import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, type DocumentNode, type OperationDefinitionNode, type VariableDefinitionNode } from 'graphql';
import type { Execute } from '../graphql/execute.js';
import { badInput } from '../shared/errors.js';
import { failureOfResult } from '../shared/http/failure.js';
import { readJsonObject, readUtf8Body } from '../shared/http/read-body.js';
import { refuseMethod, sendEnvelopeFailure, sendFailure, sendJson, successEnvelope, type PageParameters } from '../shared/http/respond.js';
import type { Principal } from '../shared/principal.js';
import { requestContextOf } from '../shared/request-context.js';
import { readParams } from './params.js';
import type { DataShape, RestInput, RestRoute } from './routes.js';

/** A route path such as `/api/external/staff/:employeeId/licenses`: one segment per `:name`, a trailing slash allowed. */
export function compilePath(path: string): { path: string; pattern: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    paramNames.push(name);
    return '([^/]+)';
  });
  return { path, pattern: new RegExp(`^${source}/?$`), paramNames };
}

/** The operation a route runs (its document holds exactly one, plus fragments). */
export function operationOf(route: RestRoute): OperationDefinitionNode {
  const operation = route.operation.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error(`route ${route.method} ${route.path}: operation document has no operation`);
  return operation;
}

/**
 * The variables a route's JSON body may set: the operation's less those the route binds from the
 * path, query string or headers. The adapter refuses any other field; the API description lists these.
 */
export function bodyVariables(route: RestRoute): VariableDefinitionNode[] {
  if (route.body !== 'json') return [];
  const params = Object.fromEntries(compilePath(route.path).paramNames.map((name) => [name, '1']));
  const probe: RestInput = { params, query: new Map(), body: undefined, header: () => undefined };
  const routeBound = new Set(Object.keys(route.variables(probe)));
  return (operationOf(route).variableDefinitions ?? []).filter((v) => !routeBound.has(v.variable.name.value));
}

/**
 * The envelope's data (and page parameters) from an operation's result. A missing object on the way
 * (a staff member the key cannot see) is null for one record, [] for a list. A page cursor becomes
 * a query-string fragment the caller can append verbatim.
 */
function shapeResult(result: unknown, { at, shape }: DataShape): { data: unknown; page?: PageParameters } {
  let value: unknown = result;
  for (const key of at) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (shape === 'record') return { data: value ?? null };
  if (value === null || value === undefined) return { data: [] };
  if (shape === 'list') return { data: value };
  type PageInfo = { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string | null; endCursor?: string | null };
  const { edges, pageInfo: info } = value as { edges: { node: unknown }[]; pageInfo?: PageInfo };
  const data = edges.map((edge) => edge.node);
  if (shape !== 'page' || !info) return { data };
  const nextPageParameter = info.hasNextPage && info.endCursor ? `after=${info.endCursor}` : undefined;
  const prevPageParameter = info.hasPreviousPage && info.startCursor ? `before=${info.startCursor}` : undefined;
  return { data, page: { nextPageParameter, prevPageParameter } };
}

/** A GET may carry the nextPageParameter string as its body, raw or as a JSON string: it joins the URL's query. */
function withCursorFromBody(query: URLSearchParams, raw: Buffer): URLSearchParams {
  const text = raw.toString('utf8').trim();
  if (text === '') return query;
  let value: unknown = text;
  if (text.startsWith('"')) {
    try {
      value = JSON.parse(text);
    } catch {
      throw badInput('Request body is not valid JSON');
    }
  }
  if (typeof value !== 'string') throw badInput('A GET body may only carry a page parameter such as "after=…"');
  const merged = new URLSearchParams(query);
  for (const [name, parameter] of new URLSearchParams(value.startsWith('?') ? value.slice(1) : value)) merged.append(name, parameter);
  return merged;
}

/** A route with its path compiled and the variables a JSON body may set (bodyVariables). */
type CompiledRoute = ReturnType<typeof compilePath> & { route: RestRoute; bodyVariables: Set<string> };

/**
 * The REST face of the API: each route runs its operation through yoga's own envelop
 * pipeline and context factory, so REST and GraphQL share auth, scoping and resolvers.
 */
export class RestAdapter {
  private readonly compiled: CompiledRoute[];

  constructor(
    routes: RestRoute[],
    private readonly options: {
      execute: Execute;
      bodyLimitBytes: number;
      /** Authentication plus the per-key rate limit, shared with /graphql. */
      authenticate: (req: IncomingMessage, res: ServerResponse) => Promise<Principal>;
    },
  ) {
    this.compiled = routes.map((route) => ({ ...compilePath(route.path), route, bodyVariables: new Set(bodyVariables(route).map((v) => v.variable.name.value)) }));
  }

  /** Handles a request under /api; false when no route path matches (the caller sends 404). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    // The first route, in table order, whose path and method match; the methods of those whose path does, for a 405.
    const methods: string[] = [];
    for (const compiled of this.compiled) {
      const match = compiled.pattern.exec(url.pathname);
      if (match === null) continue;
      if (compiled.route.method !== req.method) {
        methods.push(compiled.route.method);
        continue;
      }
      await this.run(compiled, match, req, res, url).catch((error: unknown) => sendFailure(res, error));
      return true;
    }
    if (methods.length === 0) return false;
    refuseMethod(req, res, [...new Set(methods)].join(', '));
    return true;
  }

  private async run({ route, paramNames, bodyVariables }: CompiledRoute, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: URL) {
    const principal = await this.options.authenticate(req, res);
    const params: Record<string, string> = {};
    paramNames.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1] ?? '');
      } catch {
        throw badInput(`Path parameter ${name} is not valid percent-encoding`);
      }
    });
    let query = url.searchParams;
    let body: Record<string, unknown> | undefined;
    if (route.body === 'json') {
      body = await readJsonObject(req, this.options.bodyLimitBytes, bodyVariables);
    } else {
      const raw = await readUtf8Body(req, this.options.bodyLimitBytes);
      if (route.body === 'cursor') query = withCursorFromBody(query, raw);
      // Many clients send `{}` with every POST: an empty object is as good as no body.
      else if (!/^\s*(\{\s*\})?\s*$/.test(raw.toString('utf8'))) throw badInput('This endpoint takes no request body');
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const input: RestInput = { params, query: readParams(query, route.query), body, header };
    // Like a JSON request, an absent value is not sent: graphql-js would coerce an undefined
    // variable to null, and an explicit null filter conflicts with a filtered cursor.
    const variables = Object.fromEntries(Object.entries({ ...input.body, ...route.variables(input) }).filter(([, value]) => value !== undefined));
    const requestId = requestContextOf(res)?.requestId;
    const result = await this.options.execute({ document: route.operation as DocumentNode, variables, principal, requestId });
    const failure = failureOfResult(result);
    if (failure) {
      // Variable coercion speaks GraphQL ("Variable "$uri" …"); a REST caller sent a field.
      const messages = failure.messages.map((message) => message.replace(/Variable "\$(\w+)"/g, 'Field "$1"'));
      sendEnvelopeFailure(res, { ...failure, messages });
      return;
    }
    const shaped = shapeResult(result.data, route.data);
    sendJson(res, route.successStatus, successEnvelope(route.successStatus, shaped.data, shaped.page));
  }
}
