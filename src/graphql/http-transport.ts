import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGraphQLError, isAsyncIterable } from 'graphql-yoga';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { setBounded } from '../shared/bounded-map.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { runCallerOperation, type CallerParams, type CallerResult, type RequestFacts } from './execute.js';
import type { KnownQueries } from './known-queries.js';
import type { KnownQueryLane } from './known-query-lane.js';
import type { ServerContext, YogaApp } from './yoga.js';

/**
 * GraphQL over HTTP for /graphql without the Fetch emulation: node's request in, JSON out. yoga's
 * HTTP layer turns every node request into a Fetch Request (a body stream, an AbortSignal) and
 * every answer into a Fetch Response piped back through node streams, which cost more than the
 * operation itself (bench/README.md, round two).
 *
 * This is the one transport for the requests it takes, decided before anything runs: GET and
 * POST with a JSON body (one operation or a batch within the limit), each operation of the
 * shape GraphQL over HTTP defines, answered as `application/json` or
 * `application/graphql-response+json`. Each operation runs yoga's own per-operation stage
 * (src/graphql/execute.ts) and its result goes through yoga's own result hooks and result
 * processor, so status, headers and body are yoga's. What it does not take goes to yoga whole:
 * event streams and live streams, and every malformed request (yoga words those refusals, and a
 * request refused in two places would be answered in two ways). test/graphql/transport-equality.test.ts
 * sends a corpus both ways and compares the answers.
 */

interface ResultProcessorInput {
  request: RequestFacts;
  result: unknown;
  acceptableMediaTypes: string[];
  setResult(result: unknown): void;
  resultProcessor?: ResultProcessor;
  setResultProcessor(processor: ResultProcessor, mediaType: string): void;
  serverContext: ServerContext;
}

type ResultProcessor = (result: unknown, fetchAPI: unknown, mediaType: string) => unknown;

/** What yoga's per-request hooks are kept in. yoga marks them private; the constructor checks they are there. */
interface YogaResultStage {
  onResultProcessHooks: ((input: ResultProcessorInput) => unknown)[];
  maskedErrorsOpts: { maskError(error: unknown, message: string, isDev?: boolean): Error; errorMessage: string; isDev?: boolean } | null;
}

/** A response yoga's result processor built, kept as its parts instead of a Fetch Response. */
class Answer {
  constructor(
    readonly body: string | null,
    readonly init: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

/** The Fetch API yoga's regular result processor is handed: it only ever builds a Response. */
const ANSWER_FETCH_API = { Response: Answer };

const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions']);

/** Whether `value` is an operation of the shape GraphQL over HTTP defines; yoga answers anything else. */
function isCallerParams(value: unknown): value is CallerParams {
  if (!isPlainObject(value)) return false;
  for (const name in value) if (!PARAM_NAMES.has(name)) return false;
  const { query, variables, operationName, extensions } = value;
  return (
    typeof query === 'string' &&
    (variables === undefined || variables === null || isPlainObject(variables)) &&
    (extensions === undefined || extensions === null || isPlainObject(extensions)) &&
    (operationName === undefined || operationName === null || typeof operationName === 'string')
  );
}

/** The parameters of a GET, read as yoga reads them; undefined when yoga would refuse them. */
function paramsOfQueryString(url: string): CallerParams | undefined {
  const question = url.indexOf('?');
  if (question === -1) return undefined;
  const search = new URLSearchParams(url.slice(question + 1));
  const query = search.get('query') || undefined;
  if (query === undefined) return undefined;
  try {
    const variables = search.get('variables') || undefined;
    const extensions = search.get('extensions') || undefined;
    const params = {
      operationName: search.get('operationName') || undefined,
      query,
      variables: variables ? (JSON.parse(variables) as unknown) : undefined,
      extensions: extensions ? (JSON.parse(extensions) as unknown) : undefined,
    };
    return isCallerParams(params) ? params : undefined;
  } catch {
    return undefined;
  }
}

/** yoga's request parser takes a POST body as JSON under exactly these media types. */
function isJsonPost(contentType: string | undefined): boolean {
  const first = contentType?.split(',')[0];
  if (!first) return false;
  return ['application/json', 'application/graphql+json'].some((type) => first === type || first.startsWith(`${type};`));
}

/** `{"query":` as a JSON encoder writes an object whose first member is the query. */
const QUERY_FIRST = Buffer.from('{"query":');
const COMMA = 0x2c;
const CLOSING_BRACE = 0x7d;

/**
 * The parameters of a body that starts with a known query's text as a JSON encoder writes it
 * (`{"query":"…"` then `}` or `,` and the other members): the text is recognised by its bytes
 * (KnownQueries.textAt) and only the members after it are parsed, so a known query's text is
 * neither decoded, copied nor hashed again. Exactly what parsing the whole body gives, or
 * undefined for the whole body to be parsed: `{` and what follows the text must be an object
 * with at least one member (the body is then valid JSON, and only then), and none of them may be
 * `query` again (the last of duplicate members is the one JSON.parse keeps).
 */
function knownParamsOfBody(body: Buffer, known: KnownQueries): CallerParams | undefined {
  if (body.length <= QUERY_FIRST.length || body.compare(QUERY_FIRST, 0, QUERY_FIRST.length, 0, QUERY_FIRST.length) !== 0) return undefined;
  const found = known.textAt(body, QUERY_FIRST.length);
  if (!found) return undefined;
  if (found.end === body.length - 1 && body[found.end] === CLOSING_BRACE) return { query: found.text };
  if (body[found.end] !== COMMA) return undefined;
  let rest: unknown;
  try {
    rest = JSON.parse(`{${body.toString('utf8', found.end + 1)}`);
  } catch {
    return undefined;
  }
  if (!isPlainObject(rest) || Object.hasOwn(rest, 'query') || Object.keys(rest).length === 0) return undefined;
  const params = { query: found.text, ...rest };
  return isCallerParams(params) ? params : undefined;
}

/** The operations of a POST body; undefined when yoga would refuse it or it is not a plain batch. */
function paramsOfBody(body: Buffer, batchLimit: number, known: KnownQueries | undefined): CallerParams | CallerParams[] | undefined {
  const fromKnown = known && knownParamsOfBody(body, known);
  if (fromKnown) return fromKnown;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed)) {
    return parsed.length > 0 && parsed.length <= batchLimit && parsed.every(isCallerParams) ? parsed : undefined;
  }
  return isCallerParams(parsed) ? parsed : undefined;
}

const JSON_MEDIA_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * Whether yoga would answer a result that is not a stream with its regular (JSON) processor: it
 * takes the last processor that any accepted UTF-8 media type matches, and the JSON one is last.
 */
function acceptsJson(accept: string): boolean {
  for (const entry of accept.replace(/\s/g, '').toLowerCase().split(',')) {
    const [mediaType = '', ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    const [type, subtype] = mediaType.split('/');
    for (const json of JSON_MEDIA_TYPES) {
      const [jsonType, jsonSubtype] = json.split('/');
      if ((type === '*' || type === jsonType) && (subtype === '*' || subtype === jsonSubtype)) return true;
    }
  }
  return false;
}

/** acceptsJson by Accept header: clients send a handful of values. Bounded, since the values are the caller's. */
const ACCEPT_MEMO_SIZE = 64;
const acceptMemo = new Map<string, boolean>();

function acceptsJsonMemo(accept: string | undefined): boolean {
  const key = accept || '*/*';
  let accepted = acceptMemo.get(key);
  if (accepted === undefined) {
    accepted = acceptsJson(key);
    setBounded(acceptMemo, key, accepted, ACCEPT_MEMO_SIZE);
  }
  return accepted;
}

function requestFacts(req: IncomingMessage): RequestFacts {
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

export type GraphQLTransport = (req: IncomingMessage, res: ServerResponse, context: ServerContext, body: Buffer | undefined) => Promise<boolean>;

/**
 * The transport for `yoga`'s /graphql. It answers the request and resolves true when the request
 * is one it takes, and resolves false, having done nothing, for yoga to answer it.
 */
export interface GraphQLTransportOptions {
  batchLimit: number;
  /** Answers the queries yoga's stage has already answered in full (known-query-lane.ts); yoga's stage answers the rest. */
  lane?: KnownQueryLane | undefined;
  /** The lane's known queries: a body carrying one of their texts is read without parsing the text. */
  known?: KnownQueries | undefined;
}

export function graphqlTransport(yoga: YogaApp, options: GraphQLTransportOptions): GraphQLTransport {
  const stage = yoga as unknown as YogaResultStage;
  if (!Array.isArray(stage.onResultProcessHooks) || stage.maskedErrorsOpts === undefined) {
    throw new Error('graphql-yoga no longer exposes its result hooks: src/graphql/http-transport.ts must follow it');
  }

  /** yoga's answer to an error thrown out of an operation's stage, masked as yoga masks it. */
  const errorsOf = (error: unknown): GraphQLError[] => {
    if (typeof error === 'object' && error !== null && 'errors' in error && Array.isArray(error.errors)) {
      return [...new Set((error.errors as unknown[]).flatMap(errorsOf))];
    }
    const masking = stage.maskedErrorsOpts;
    const masked = masking ? masking.maskError(error, masking.errorMessage, masking.isDev) : error;
    if (masked instanceof GraphQLError) return [masked];
    const message = masked instanceof Error ? masked.message : String(masked);
    return [createGraphQLError(message, { originalError: masked instanceof Error ? masked : undefined })];
  };

  /** The lane's answer, or undefined when it hands the request back (a throw included: yoga's stage answers what went wrong). */
  const laneAnswer = (params: CallerParams, context: ServerContext): Promise<ExecutionResult | undefined> | undefined => {
    if (!options.lane) return undefined;
    try {
      return options.lane(params, context)?.catch(() => undefined);
    } catch {
      return undefined;
    }
  };

  /** yoga's per-operation stage, with a throw answered as yoga answers it. */
  const run = async (params: CallerParams, request: RequestFacts, context: ServerContext): Promise<CallerResult> => {
    try {
      return await runCallerOperation(yoga, params, request, context);
    } catch (error) {
      return { errors: errorsOf(error) };
    }
  };

  /** yoga's result stage: its result hooks choose the processor, which renders status, headers and body. */
  const answerOf = async (request: RequestFacts, result: unknown, serverContext: ServerContext): Promise<Answer> => {
    let processor: ResultProcessor | undefined;
    let mediaType = '*/*';
    const acceptableMediaTypes: string[] = [];
    for (const hook of stage.onResultProcessHooks) {
      await hook({
        request,
        acceptableMediaTypes,
        result,
        setResult(next) {
          result = next;
        },
        resultProcessor: processor,
        setResultProcessor(next, nextMediaType) {
          processor = next;
          mediaType = nextMediaType;
        },
        serverContext,
      });
    }
    if (!processor) return new Answer(null, { status: 406, headers: { accept: acceptableMediaTypes.join('; charset=utf-8, ') } });
    const answer = await processor(result, ANSWER_FETCH_API, mediaType);
    if (!(answer instanceof Answer)) throw new Error(`yoga chose a streaming result processor for ${mediaType}`);
    return answer;
  };

  /**
   * What yoga's result stage answers a result without errors with, by Accept header: the
   * status and headers it chose the first time, kept once its body was the result's JSON. The
   * hooks choose the processor from the Accept header alone and act on nothing else for such a
   * result (error-masking.ts, armor.ts), so a known query's answer skips them from then on.
   * Bounded, since the values are the caller's.
   */
  const successAnswers = new Map<string, Answer['init']>();

  const write = (res: ServerResponse, answer: Answer): void => {
    // Header names as yoga's node adapter writes them: as the result processor spelled them.
    const headers: Record<string, string | number> = { ...answer.init.headers };
    if (answer.body !== null) headers['content-length'] = Buffer.byteLength(answer.body);
    res.writeHead(answer.init.status ?? 200, headers);
    res.end(answer.body ?? undefined);
  };

  /**
   * Answers a known query's result (no errors: the lane hands those back) as yoga's result stage
   * would: at once when the stage's answer for this Accept header is known, else through the stage.
   */
  const answerSuccess = (req: IncomingMessage, result: ExecutionResult, serverContext: () => ServerContext): Answer | Promise<Answer> => {
    const key = req.headers.accept ?? '';
    const init = successAnswers.get(key);
    if (init) return new Answer(JSON.stringify(result), init);
    return answerOf(requestFacts(req), result, serverContext()).then((answer) => {
      if (answer.body === JSON.stringify(result) && (answer.init.status ?? 200) === 200) {
        setBounded(successAnswers, key, answer.init, ACCEPT_MEMO_SIZE);
      }
      return answer;
    });
  };

  return async (req, res, context, body) => {
    if (context.liveStream || !acceptsJsonMemo(req.headers.accept)) return false;
    let params: CallerParams | CallerParams[] | undefined;
    if (req.method === 'GET') params = paramsOfQueryString(req.url ?? '/');
    else if (req.method === 'POST' && body !== undefined && isJsonPost(req.headers['content-type'])) params = paramsOfBody(body, options.batchLimit, options.known);
    if (params === undefined) return false;

    // yoga's node adapter adds the node request and response to what the server passes in.
    const serverContextOf = () => ({ ...context, req, res }) as ServerContext;
    if (!Array.isArray(params)) {
      const answered = await laneAnswer(params, context);
      if (answered) {
        const answer = answerSuccess(req, answered, serverContextOf);
        write(res, answer instanceof Answer ? answer : await answer);
        return true;
      }
    }
    const serverContext = serverContextOf();

    const request = requestFacts(req);
    let result: unknown;
    if (Array.isArray(params)) {
      result = await Promise.all(
        params.map(async (one) => {
          const itemContext = Object.create(serverContext) as ServerContext;
          return (await laneAnswer(one, itemContext)) ?? run(one, request, itemContext);
        }),
      );
    } else {
      // The lane has had it: yoga's stage answers.
      result = await run(params, request, serverContext);
    }
    const answer = await answerOf(request, result, serverContext);
    if (isAsyncIterable(result)) void (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().return?.();
    write(res, answer);
    return true;
  };
}
