import { GraphQLError } from 'graphql';
import { createGraphQLError, processRegularResult, type Plugin } from 'graphql-yoga';

interface HttpExtension {
  status?: number;
  /** yoga's mark for a GraphQL-over-HTTP request error (it answers 200 for those under application/json). */
  spec?: boolean;
}

function httpOf(error: GraphQLError): HttpExtension | undefined {
  const http = (error.extensions as { http?: unknown }).http;
  return typeof http === 'object' && http !== null ? (http as HttpExtension) : undefined;
}

/**
 * One HTTP status per kind of refusal, whatever the Accept header (docs/security.md has the
 * table). A request refused before anything runs — its document does not parse, fails
 * validation (schema rules and GraphQL Armor limits alike), names no operation, or its
 * variables do not fit — is HTTP 400 with no `data`. GraphQL-over-HTTP requires 400 for
 * application/graphql-response+json and allows it for application/json, where yoga would
 * otherwise answer parse and validation failures with 200 (and variable failures with 400).
 *
 * The errors themselves are cached by yoga across requests (the parse and validation caches),
 * so they only ever carry request-independent marks; the status is chosen per response. An
 * event stream keeps yoga's 200 with the error as its first event, the only way an
 * EventSource client can read it. A batch answers 200 as a whole, each item with its errors.
 */
export function refusalStatuses(options: { batchLimit: number; exposeLimits: boolean }): Plugin {
  return {
    onParse() {
      return ({ result }) => {
        // yoga marks parse failures only when it parses with a Fetch request at hand; the fast
        // lane parses first (without one) and yoga's cache then replays the unmarked error.
        if (!(result instanceof GraphQLError)) return;
        const extensions = result.extensions as Record<string, unknown>;
        extensions.code ??= 'GRAPHQL_PARSE_FAILED';
        extensions.http ??= { spec: true, status: 400 };
      };
    },
    onRequestParse() {
      return {
        onRequestParseDone({ requestParserResult }) {
          // Before yoga's own batch check, which answers 413: a long batch is not a large body.
          if (Array.isArray(requestParserResult) && requestParserResult.length > options.batchLimit) {
            const limit = options.exposeLimits ? ` to ${options.batchLimit} operations` : '';
            throw createGraphQLError(`Batching is limited${limit} per request`, {
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            });
          }
        },
      };
    },
    onResultProcess({ result, setResult, resultProcessor }) {
      if (resultProcessor !== processRegularResult || Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (result.data !== undefined || !result.errors?.length) return;
      let status = 0;
      for (const error of result.errors) {
        const http = error instanceof GraphQLError ? httpOf(error) : undefined;
        if (http?.spec && http.status !== undefined) status = Math.max(status, http.status);
      }
      if (status === 0) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status } } });
    },
  };
}
