import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { resolveNodes } from '@pothos/plugin-relay';
import { GraphQLError, Kind } from 'graphql';
import { normaliseDateTime } from '../import/date-time.js';
import { badInput, forbidden } from '../shared/errors.js';
import { MAX_PAGE_SIZE } from '../shared/pagination/keyset.js';
import type { GraphQLContext } from './context.js';
import { listLengthArgument } from './cost.js';
import { decodeGlobalId, encodeGlobalId } from './global-id.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { developer: boolean; timesheet: boolean };
  Scalars: {
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, RelayPlugin, DataloaderPlugin],
  scopeAuth: {
    authorizeOnSubscribe: true,
    // The KeyType rule of the contract: which kind of key may read which kind of record.
    authScopes: (context) => ({
      developer: context.principal.keyType === 'developer',
      timesheet: context.principal.keyType === 'timesheet',
    }),
    unauthorizedError: () => forbidden('This API key type may not access this resource'),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    // Relay's `nodes` decodes every id before resolving, so one malformed id would fail the
    // whole list; ours (below) answers each malformed id with an error of its own instead.
    nodesQueryOptions: false,
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

builder.queryField('nodes', (t) =>
  t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    args: { ids: t.arg.idList({ required: true }) },
    extensions: listLengthArgument('ids'),
    resolve: async (_root, args, context, info) => {
      // Bounded like a connection page, so one request cannot ask for an unbounded batch.
      if (args.ids.length > MAX_PAGE_SIZE) throw badInput(`nodes takes at most ${MAX_PAGE_SIZE} ids`);
      const decoded = args.ids.map((id) => {
        try {
          const { typename, id: key } = decodeGlobalId(String(id));
          // Every node type's id is the record's integer key (decodeGlobalId checked the digits).
          return { typename, id: Number(key) };
        } catch (error) {
          if (error instanceof GraphQLError) return error;
          throw error;
        }
      });
      const found = await resolveNodes(builder, context, info, decoded.map((d) => (d instanceof GraphQLError ? null : d)));
      // An Error in the list becomes null at its index with its own error at ["nodes", i].
      return decoded.map((d, i) => (d instanceof GraphQLError ? d : found[i]));
    },
  }),
);

/**
 * Date-times leave the API as ISO 8601 UTC strings ("…Z"), as they are stored. Read as strictly
 * as an import reads them: a zone is required and a date that does not exist (Feb 30) is refused,
 * not rolled over. Digits past the millisecond are dropped, never rounded up.
 */
builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time, always returned in UTC ("2026-01-31T08:00:00.000Z").',
  serialize: (value) => String(value),
  parseValue: (value) => {
    const iso = typeof value === 'string' ? normaliseDateTime(value) : null;
    if (iso === null) throw new GraphQLError('DateTime must be an ISO 8601 date-time with a time zone');
    return iso;
  },
});

builder.scalarType('JSON', {
  description: 'A generic JSON value whose inner fields the schema does not fix.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.BOOLEAN) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    if (ast.kind === Kind.NULL) return null;
    throw new GraphQLError('JSON literals must be scalars; pass objects as variables');
  },
});
