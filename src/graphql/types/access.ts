import type { ObjectRef } from '@pothos/core';
import type { KeyType, Principal } from '../../shared/principal.js';
import type { Db } from '../../shared/db/knex.js';
import { notFound } from '../../shared/errors.js';
import type { GraphQLContext } from '../context.js';
import { builder } from '../builder.js';

/** Which KeyType may read which records (docs/rest-api.md, Authentication); root fields repeat them so the check runs before any load. */
export const DEVELOPER_ONLY = { developer: true } as const;
export const TIMESHEET_ONLY = { timesheet: true } as const;
export const ANY_KEY = { developer: true, timesheet: true } as const;

/**
 * Options of the own fields of a type whose every way in already checks its scope, so Pothos does
 * not repeat the check on every field of every object (fifty times per field on a page);
 * test/graphql/type-scope-entry.test.ts fails a new way in that does not check the scope.
 */
export const SCOPE_CHECKED_ON_ENTRY = { skipTypeScopes: true } as const;

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

type Scope = Partial<Record<KeyType, true>>;

/**
 * What every node type declares: its scope, its record's integer key as its id, and a `load` of
 * the records in the key's scope that gives every other id the NOT_FOUND of a missing record. A
 * key that may not read the type at all gets that for every id without a query, so `node(id:)`
 * cannot tell a forbidden record from an absent one. No Pothos `sort`: it rejects the whole batch
 * when one result is an error.
 */
export function scopedNode<T>(
  label: string,
  scope: Scope,
  fetch: (db: Db, principal: Principal, ids: readonly number[]) => Promise<(T | null)[]>,
  key: (record: T) => number,
) {
  return {
    authScopes: scope,
    id: { resolve: key, parse: (id: string) => Number(id) },
    load: async (ids: number[], context: GraphQLContext): Promise<(T | Error)[]> => {
      const { principal } = context;
      const rows = scope[principal.keyType] ? await fetch(context.services.db, principal, ids) : ids.map(() => null);
      return rows.map((row, i) => row ?? notFound(`${label} ${ids[i]} not found`));
    },
  };
}

/** Query.`name`(`arg`: Int!): one record by its id; null, with NOT_FOUND, when the key's scope does not reach it. */
export function recordField(
  name: string,
  type: ObjectRef<BuilderTypes, number | object>,
  scope: Scope,
  { arg, description }: { arg: string; description: string },
): void {
  builder.queryField(name, (t) =>
    t.field({
      type,
      nullable: true,
      authScopes: scope,
      description,
      args: { [arg]: t.arg.int({ required: true }) },
      resolve: (_root, args) => args[arg]!,
    }),
  );
}
