import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ValidationContext } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config.js';
import { costLimit } from './cost.js';

export type GraphQLLimits = LimitsConfig['graphql'];

/**
 * A limit refusal is a validation failure like any other (GraphQL over HTTP names depth and
 * complexity limits as validation rules), not the "Syntax Error" GraphQL Armor words it as. In
 * production the message stays generic (`exposeLimits` off), so a probe learns no configured number.
 */
function limitError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
}

/**
 * GraphQL Armor's limits (defaults in src/config.ts) as yoga plugins. They are validation rules and
 * a token-counting parser, so they only see documents sent to /graphql: the REST adapter executes
 * its checked-in operation documents without parsing or validating them again.
 */
export function armorPlugins(limits: GraphQLLimits): Plugin[] {
  const options = { exposeLimits: limits.exposeLimits, propagateOnRejection: false };
  // Rules report into the validation result, so a refusal travels the road of any validation error.
  const rule = { ...options, onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(limitError(error))] };
  // The token count runs inside the parser, so its refusal leaves the parser as a thrown error.
  const throwRefusal = (_context: ValidationContext | null, error: GraphQLError): never => {
    throw limitError(error);
  };
  const parser = { ...options, onReject: [throwRefusal] };
  const plugins: Plugin[] = [
    maxTokensPlugin({ n: limits.maxTokens, ...parser }) as Plugin,
    maxDepthPlugin({ n: limits.maxDepth, ...rule }) as Plugin,
    maxAliasesPlugin({ n: limits.maxAliases, ...rule }) as Plugin,
    maxDirectivesPlugin({ n: limits.maxDirectives, ...rule }) as Plugin,
    // The cost depends on the variables (page sizes, cursors, id lists), so it is checked as the operation starts (cost.ts).
    costLimit({ maxCost: limits.maxCost, exposeLimits: limits.exposeLimits }),
    refusalStatuses(limits),
    noBatchedStreams(),
  ];
  // "Did you mean …" hints map the schema for a caller who cannot introspect it.
  if (!limits.fieldSuggestions) plugins.push(blockFieldSuggestionsPlugin() as Plugin);
  if (!limits.introspection) plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  return plugins;
}

/**
 * One HTTP status per kind of refusal, as GraphQL over HTTP asks (table in docs/security.md): a
 * document that does not parse or validate carries yoga's request-error mark, so it is answered
 * with no `data`, 400 under application/graphql-response+json and 200 under application/json.
 * yoga caches these errors across requests, so the marks are request-independent.
 */
function refusalStatuses(limits: GraphQLLimits): Plugin {
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
          if (Array.isArray(requestParserResult) && requestParserResult.length > limits.batchLimit) {
            const limit = limits.exposeLimits ? ` to ${limits.batchLimit} operations` : '';
            throw createGraphQLError(`Batching is limited${limit} per request`, {
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

/**
 * A batch answers with one JSON array, which cannot carry a stream: yoga would serialise a
 * subscription inside a batch as `{}`. Such an item becomes an error, and its stream is closed.
 */
function noBatchedStreams(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (!Array.isArray(result)) return;
      setResult(
        result.map((item) => {
          if (item && typeof item === 'object' && Symbol.asyncIterator in item) {
            void (item as unknown as AsyncIterator<unknown>).return?.();
            return { errors: [new GraphQLError('Subscriptions cannot be sent in a batch', { extensions: { code: 'BAD_USER_INPUT' } })] };
          }
          return item;
        }),
      );
    },
  };
}
