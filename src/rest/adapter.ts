import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DocumentNode } from 'graphql';
import type { Principal } from '../shared/principal.js';
import { badInput } from '../shared/errors.js';
import type { Execute } from '../graphql/execute.js';
import { failureOfResult, refusal } from '../shared/http/failure.js';
import { readJsonObject } from '../shared/http/json-body.js';
import { readUtf8Body } from '../shared/http/read-body.js';
import { requestContextOf } from '../shared/request-context.js';
import { sendJson } from '../shared/http/respond.js';
import { successEnvelope } from './envelope.js';
import { bodyVariables } from './body-variables.js';
import { readParams } from './params.js';
import { shapeResult } from './result-shape.js';
import { compilePath, type CompiledPath } from './route-matcher.js';
import { sendEnvelopeFailure, sendFailure } from './send-failure.js';
import type { RestInput, RestRoute } from './routes.js';

interface CompiledRoute extends CompiledPath {
  route: RestRoute;
  /** Variables a JSON body may set: the operation's variables less those the route binds itself. */
  bodyVariables: Set<string>;
}

function compile(route: RestRoute): CompiledRoute {
  const path = compilePath(route.path);
  return { ...path, route, bodyVariables: new Set(bodyVariables(route).map((v) => v.variable.name.value)) };
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

export interface RestAdapterOptions {
  execute: Execute;
  bodyLimitBytes: number;
  /** Authentication plus the per-key rate limit (src/auth/request-authentication.ts), shared with /graphql. */
  authenticate: (req: IncomingMessage, res: ServerResponse) => Principal | Promise<Principal>;
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
    // The first route, in table order, whose path and method match; the methods of those whose path does, for a 405.
    let hit: { c: CompiledRoute; m: RegExpExecArray } | undefined;
    const methods: string[] = [];
    for (const c of this.compiled) {
      const m = c.pattern.exec(url.pathname);
      if (m === null) continue;
      if (c.route.method === req.method) {
        hit = { c, m };
        break;
      }
      methods.push(c.route.method);
    }
    if (!hit) {
      if (methods.length === 0) return false;
      const allow = [...new Set(methods)].join(', ');
      req.resume();
      sendEnvelopeFailure(res, refusal(405, 'METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use ${allow}`), { allow });
      return true;
    }
    try {
      await this.run(hit.c, hit.m, req, res, url);
    } catch (error) {
      sendFailure(res, error);
    }
    return true;
  }

  private async run(compiled: CompiledRoute, match: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: URL) {
    const { route } = compiled;
    const principal = await this.options.authenticate(req, res);
    const params: Record<string, string> = {};
    compiled.paramNames.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1] ?? '');
      } catch {
        throw badInput(`Path parameter ${name} is not valid percent-encoding`);
      }
    });
    let query = url.searchParams;
    let body: Record<string, unknown> | undefined;
    if (route.body === 'json') {
      body = await readJsonObject(req, this.options.bodyLimitBytes, compiled.bodyVariables);
    } else {
      const raw = await readUtf8Body(req, this.options.bodyLimitBytes);
      if (route.body === 'cursor') query = mergeQuery(url.searchParams, cursorFromBody(raw));
      else if (!isEmptyBody(raw)) throw badInput('This endpoint takes no request body');
    }
    const input: RestInput = { params, query: readParams(query, route.query), body, header: (name) => headerOf(req, name) };
    // Like a JSON request, an absent value is not sent: graphql-js would coerce an undefined
    // variable to null, and an explicit null filter conflicts with a filtered cursor.
    const variables = Object.fromEntries(
      Object.entries({ ...input.body, ...route.variables(input) }).filter(([, value]) => value !== undefined),
    );
    const result = await this.options.execute({
      document: route.operation as DocumentNode,
      variables,
      principal,
      requestId: requestContextOf(res)?.requestId,
    });
    const failure = failureOfResult(result);
    if (failure) {
      sendEnvelopeFailure(res, { ...failure, messages: failure.messages.map(restWording) });
      return;
    }
    const shaped = shapeResult(result.data, route.data);
    sendJson(res, route.successStatus, successEnvelope(route.successStatus, shaped.data, shaped.page));
  }
}
