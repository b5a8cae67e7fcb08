import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { forbidden } from '../shared/errors.js';
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
    // Relay's `nodes` decodes every id before resolving, so one malformed id would fail the
    // whole list; types/nodes.ts defines the field with one error per malformed id instead.
    nodesQueryOptions: false,
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
