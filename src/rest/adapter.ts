import type { IncomingMessage, ServerResponse } from 'node:http';
import { Kind, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import type { Principal } from '../auth/principal.js';
import { badInput, errorCodeOf, headersForCode, statusForCode, type ErrorCode } from '../errors.js';
import { readJsonObject } from '../http/json-body.js';
import { readUtf8Body } from '../http/read-body.js';
import { sendJson } from '../http/respond.js';
import type { YogaApp } from '../graphql/yoga.js';
import { failureEnvelope, successEnvelope } from './envelope.js';
import { internalErrorMessage, sendFailure } from './send-failure.js';
import type { RestInput, RestRoute } from './routes.js';

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  paramNames: string[];
  /** Variables a JSON body may set: the operation's variables less those the route binds itself. */
  bodyVariables: Set<string>;
}

function compile(route: RestRoute): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    paramNames.push(name);
    return '([^/]+)';
  });
  const operation = route.operation.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`route ${route.path}: operation document has no operation`);
  const probe: RestInput = {
    params: Object.fromEntries(paramNames.map((n) => [n, '1'])),
    query: new URLSearchParams(),
    body: undefined,
    header: () => undefined,
  };
  // Variables a route binds itself (from the path, query or headers) are not the body's to set.
  const routeBound = new Set(Object.keys(route.variables(probe)));
  const bodyVariables = new Set(
    (operation.variableDefinitions ?? []).map((v) => v.variable.name.value).filter((name) => !routeBound.has(name)),
  );
  return { route, pattern: new RegExp(`^${source}/?$`), paramNames, bodyVariables };
}

/** A GET may carry the nextPageParameter string as its body, raw or as a JSON string. */
function cursorFromBody(raw: Buffer): URLSearchParams {
  const text = raw.toString('utf8').trim();
  if (text === '') return new URLSearchParams();
  let value: unknown = text;
  if (text.startsWith('"')) {
    try {
      value = JSON.parse(text);
    } catch {
      throw badInput('Request body is not valid JSON');
    }
  }
  if (typeof value !== 'string') throw badInput('A GET body may only carry a page parameter such as "after=…"');
  return new URLSearchParams(value.startsWith('?') ? value.slice(1) : value);
}

function mergeQuery(url: URLSearchParams, fromBody: URLSearchParams): URLSearchParams {
  if ([...fromBody.keys()].length === 0) return url;
  const merged = new URLSearchParams(url);
  for (const [name, value] of fromBody) merged.append(name, value);
  return merged;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Many clients send `{}` with every POST: an empty object is as good as no body. */
function isEmptyBody(raw: Buffer): boolean {
  const text = raw.toString('utf8').trim();
  return text === '' || /^\{\s*\}$/.test(text);
}

/** Variable coercion speaks GraphQL ("Variable "$uri" …"); a REST caller sent a field. */
function restWording(message: string): string {
  return message.replace(/Variable "\$(\w+)"/g, 'Field "$1"');
}

/** Maps a GraphQL result's errors to one HTTP status, its headers and the envelope's messages. */
function failureOf(result: ExecutionResult): { status: number; headers: Record<string, string>; messages: string[] } | null {
  const errors = result.errors ?? [];
  if (errors.length === 0) return null;
  const coded = errors.find((e) => errorCodeOf(e) !== undefined);
  const code: ErrorCode | undefined = coded ? errorCodeOf(coded) : undefined;
  // Without data, the request itself was refused (variable coercion): the caller's input.
  const status = coded ? statusForCode(code) : 'data' in result ? 500 : 400;
  const relevant = coded ? errors.filter((e) => statusForCode(errorCodeOf(e)) === status) : errors;
  return {
    status,
    headers: headersForCode(code),
    messages: relevant.map((e) => (status === 500 ? 'Internal server error' : restWording(e.message))),
  };
}

export interface RestAdapterOptions {
  yoga: YogaApp;
  bodyLimitBytes: number;
  /** Authentication plus the per-key rate limit (src/http/request-road.ts), shared with /graphql. */
  admit: (req: IncomingMessage, res: ServerResponse) => Promise<Principal>;
}

/**
 * The REST face of the API: each route runs its operation through yoga's own envelop
 * pipeline and context factory, so REST and GraphQL share auth, scoping and resolvers.
 */
export class RestAdapter {
  private readonly compiled: CompiledRoute[];

  constructor(
    routes: RestRoute[],
    private readonly options: RestAdapterOptions,
  ) {
    this.compiled = routes.map(compile);
  }

  /** Handles a request under /api; false when no route path matches (the caller sends 404). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const matches = this.compiled
      .map((c) => ({ c, m: c.pattern.exec(url.pathname) }))
      .filter((x): x is { c: CompiledRoute; m: RegExpExecArray } => x.m !== null);
    if (matches.length === 0) return false;
    const hit = matches.find((x) => x.c.route.method === req.method);
    if (!hit) {
      const allow = [...new Set(matches.map((x) => x.c.route.method))].join(', ');
      req.resume();
      sendJson(res, 405, failureEnvelope(405, [`Method ${req.method} is not allowed here; use ${allow}`]), { allow });
      return true;
    }
    try {
      const { status, body, headers } = await this.execute(hit.c, hit.m, req, res, url);
      sendJson(res, status, body, headers);
    } catch (error) {
      sendFailure(res, error);
    }
    return true;
  }

  private async execute(compiled: CompiledRoute, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: URL) {
    const { route } = compiled;
    const principal = await this.options.admit(req, res);
    const params: Record<string, string> = {};
    compiled.paramNames.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1] ?? '');
      } catch {
        throw badInput(`Path parameter ${name} is not valid percent-encoding`);
      }
    });
    const input: RestInput = { params, query: url.searchParams, body: undefined, header: (name) => headerOf(req, name) };
    if (route.body === 'json') {
      input.body = await readJsonObject(req, this.options.bodyLimitBytes, compiled.bodyVariables);
    } else {
      const raw = await readUtf8Body(req, this.options.bodyLimitBytes);
      if (route.body === 'cursor') input.query = mergeQuery(url.searchParams, cursorFromBody(raw));
      else if (!isEmptyBody(raw)) throw badInput('This endpoint takes no request body');
    }
    // Like a JSON request, an absent value is not sent: graphql-js would coerce an undefined
    // variable to null, and an explicit null filter conflicts with a filtered cursor.
    const variables = Object.fromEntries(
      Object.entries({ ...input.body, ...route.variables(input) }).filter(([, value]) => value !== undefined),
    );
    const { execute, contextFactory, schema } = this.options.yoga.getEnveloped({ principal });
    const contextValue = await contextFactory();
    const result = (await execute({
      schema,
      document: route.operation as DocumentNode,
      variableValues: variables,
      contextValue,
    })) as ExecutionResult<never>;
    const failure = failureOf(result);
    if (failure) {
      const messages = failure.status === 500 ? [internalErrorMessage(res)] : failure.messages;
      return { status: failure.status, body: failureEnvelope(failure.status, messages), headers: failure.headers };
    }
    const shaped = route.result(result.data as never);
    return { status: route.successStatus, body: successEnvelope(route.successStatus, shaped.data, shaped.page) };
  }
}
