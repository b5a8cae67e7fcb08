import { GraphQLError, Kind } from 'graphql';
import { builder } from '../builder.js';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Date-times leave the API as ISO 8601 UTC strings ("…Z"), as they are stored. */
export function toUtcIso(value: string): string | null {
  if (!ISO_DATE_TIME.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time, always returned in UTC ("2026-01-31T08:00:00.000Z").',
  serialize: (value) => String(value),
  parseValue: (value) => {
    const iso = typeof value === 'string' ? toUtcIso(value) : null;
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
