import { GraphQLError, Kind } from 'graphql';
import { builder } from '../builder.js';
import { normaliseDateTime } from '../../import/date-time.js';

/**
 * Date-times leave the API as ISO 8601 UTC strings ("…Z"), as they are stored. Read as strictly
 * as an import reads them: a zone is required and a date that does not exist (Feb 30) is refused,
 * not rolled over. Digits past the millisecond are dropped, never rounded up.
 */
export function toUtcIso(value: string): string | null {
  return normaliseDateTime(value);
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
