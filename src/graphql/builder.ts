import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { badInput, forbidden } from '../errors.js';
import { MAX_PAGE_SIZE } from '../pagination/keyset.js';
import type { GraphQLContext } from './context.js';
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
    nodesQueryOptions: {
      // Bounded like a connection page, so one request cannot ask for an unbounded batch.
      resolve: (_root, args, _context, _info, resolveNodes) => {
        if (args.ids.length > MAX_PAGE_SIZE) throw badInput(`nodes takes at most ${MAX_PAGE_SIZE} ids`);
        return resolveNodes(args.ids);
      },
    },
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
