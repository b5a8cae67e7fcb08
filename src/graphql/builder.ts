import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, Kind } from 'graphql';
import { normaliseDateTime } from '../import/date-time.js';
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
