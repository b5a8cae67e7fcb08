import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { getOperationAST, GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { createHandler, type ResponseInit } from 'graphql-http';
import type { ServerContext, YogaApp } from './yoga.js';

/** What graphql-http carries for one request: the caller, and the result once the operation ran. */
type Exchange = { serverContext: ServerContext; result?: ExecutionResult };

/** An error's `extensions.http`; a `spec` status applies only under application/graphql-response+json (GraphQL over HTTP). */
function httpOf(error: GraphQLError): { status?: number; headers?: Record<string, string>; spec?: boolean } | undefined {
  const http = error.extensions?.http;
  return typeof http === 'object' && http !== null ? http : undefined;
}

/** An error as the caller sees it: `extensions.http` decides the answer's status and headers, and stays out of the body. */
function withoutHttp(error: GraphQLError | Error): GraphQLError | Error {
  if (!(error instanceof GraphQLError) || !httpOf(error)) return error;
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions });
}

/**
 * The HTTP status and headers of an operation's result on /graphql: the highest status an error
 * asks for (`extensions.http`: 503 for an unavailable database, 400 for a cost or parse refusal
 * under application/graphql-response+json); otherwise 400 for a request error (no `data`), and 200.
 */
function answerOf(result: ExecutionResult, init: ResponseInit): ResponseInit {
  const json = init.headers?.['content-type']?.startsWith('application/json') ?? true;
  let status = 0;
  let unmarked = false;
  const headers: Record<string, string> = { ...init.headers };
  for (const error of result.errors ?? []) {
    const http = httpOf(error);
    if (!http) unmarked = true;
    else {
      Object.assign(headers, http.headers);
      if (http.status && !(json && http.spec)) status = Math.max(status, http.status);
    }
  }
  if (!status) status = unmarked && !('data' in result) ? 400 : 200;
  return { status, statusText: STATUS_CODES[status] ?? '', headers };
}

/**
 * /graphql's GET and JSON POST requests of one operation: GraphQL over HTTP as graphql-http
 * implements it, each operation run through yoga's envelop pipeline (`getEnveloped`), as envelop's
 * graphql-http integration does it. The request's parameters go into the context for the cost limit (cost.ts).
 */
export function graphqlHttpHandler(yoga: YogaApp) {
  /** The envelope's execute, by the context it was built with. */
  const executes = new WeakMap<object, (args: ExecutionArgs) => unknown>();
  const handle = createHandler<IncomingMessage, Exchange, Record<string, unknown>>({
    async onSubscribe(req, params) {
      const { parse, validate, contextFactory, execute, schema } = yoga.getEnveloped({ ...req.context.serverContext, params });
      let document;
      try {
        document = parse(params.query);
      } catch (error) {
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
      const errors = validate(schema, document);
      if (errors.length > 0) return errors;
      const contextValue = (await contextFactory()) as Record<string, unknown>;
      const args = { schema, document, operationName: params.operationName, variableValues: params.variables, contextValue };
      // No operation to run (several and none named, or an unknown name): graphql-js words the refusal.
      if (!getOperationAST(document, params.operationName)) {
        req.context.result = (await execute(args)) as ExecutionResult;
        return req.context.result.errors;
      }
      executes.set(contextValue, execute);
      return args;
    },
    execute: (args) => executes.get(args.contextValue as object)!(args) as ReturnType<typeof import('graphql').execute>,
    onOperation(req, _args, result) {
      req.context.result = result;
    },
    formatError: withoutHttp,
  });
  return async (req: IncomingMessage, res: ServerResponse, serverContext: ServerContext, body: Buffer | undefined): Promise<void> => {
    const exchange: Exchange = { serverContext };
    const bodyText = body === undefined ? null : body.toString('utf8');
    const [text, init] = await handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: bodyText, raw: req, context: exchange });
    const answer = exchange.result ? answerOf(exchange.result, init) : init;
    const headers: Record<string, string | number> = { ...answer.headers };
    if (text !== null) {
      headers['content-type'] ??= 'application/json; charset=utf-8';
      headers['content-length'] = Buffer.byteLength(text);
    }
    res.writeHead(answer.status, answer.statusText, headers);
    res.end(text ?? undefined);
  };
}
