import { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/**
 * One HTTP status per kind of refusal, as GraphQL over HTTP asks (docs/security.md has the
 * table). A document refused before anything runs — it does not parse, or fails validation
 * (schema rules and GraphQL Armor limits alike) — carries yoga's request-error mark, so yoga
 * answers it with no `data`: HTTP 400 under application/graphql-response+json, 200 under the
 * legacy application/json (the status the spec asks for there). Without this mark, a parse
 * failure raised by Armor's token limit inside the parser came back as 200 under every media
 * type.
 *
 * The errors themselves are cached by yoga across requests, so they only carry
 * request-independent marks. A batch answers 200 as a whole, each item with its errors.
 */
export function refusalStatuses(options: { batchLimit: number; exposeLimits: boolean }): Plugin {
  return {
    onParse() {
      return ({ result }) => {
        // yoga marks parse failures only when it parses with a Fetch request at hand, and Armor's
        // token limit throws from inside the parser; either way the mark is set here, once.
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
  };
}
