import { isDeepStrictEqual } from 'node:util';
import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';

// A type whose own fields skip its scope check (SCOPE_CHECKED_ON_ENTRY) relies on every way into
// it checking the same scope. This walks the schema and finds each way in, so a field added later
// that returns such a type without checking the scope fails here instead of leaking records.

type Parent = GraphQLObjectType | GraphQLInterfaceType;

interface PothosExtensions {
  pothosOptions?: { authScopes?: unknown; skipTypeScopes?: boolean };
}

const NODE_LOOKUPS = new Set(['Query.node', 'Query.nodes']);

function typeScope(type: GraphQLNamedType): unknown {
  return (type.extensions as PothosExtensions | undefined)?.pothosOptions?.authScopes;
}

function fieldOptions(field: GraphQLField<unknown, unknown>): NonNullable<PothosExtensions['pothosOptions']> {
  return (field.extensions as PothosExtensions | undefined)?.pothosOptions ?? {};
}

function parents(target: GraphQLSchema): Parent[] {
  return Object.values(target.getTypeMap()).filter(
    (t): t is Parent => (isObjectType(t) || isInterfaceType(t)) && !t.name.startsWith('__'),
  );
}

function isRoot(target: GraphQLSchema, type: Parent): boolean {
  return [target.getQueryType(), target.getMutationType(), target.getSubscriptionType()].includes(type as GraphQLObjectType);
}

/** The types whose own fields skip the type's scope check: each must be entered checked. */
export function typesCheckedOnEntry(target: GraphQLSchema): GraphQLObjectType[] {
  return parents(target).filter(
    (t): t is GraphQLObjectType =>
      isObjectType(t) && typeScope(t) !== undefined && Object.values(t.getFields()).some((f) => fieldOptions(f).skipTypeScopes),
  );
}

/** `Parent.field` for every field returning `type`, directly or through an interface it implements. */
function waysIn(target: GraphQLSchema, type: GraphQLNamedType): { parent: Parent; field: GraphQLField<unknown, unknown> }[] {
  const names = new Set([type.name, ...(isObjectType(type) ? type.getInterfaces().map((i) => i.name) : [])]);
  const found = [];
  for (const parent of parents(target)) {
    for (const field of Object.values(parent.getFields())) {
      if (names.has(getNamedType(field.type).name)) found.push({ parent, field });
    }
  }
  return found;
}

/**
 * The ways into `type` that do not check `scope` before its objects exist: a way in checks it when
 * the field declares the scope, or its parent type carries the same scope and runs it on that
 * field (or is itself checked on entry), or its parent is an unscoped non-root type (a connection,
 * an edge) whose own ways in all check it. `node`/`nodes` load through the type's `load`, which is
 * `scopedNode` with the scope (test/graphql/node.test.ts and the key-type matrices pin it).
 */
export function uncheckedWaysIn(target: GraphQLSchema, type: GraphQLNamedType, scope: unknown, seen = new Set<string>()): string[] {
  if (seen.has(type.name)) return [];
  seen.add(type.name);
  const unchecked: string[] = [];
  for (const { parent, field } of waysIn(target, type)) {
    const name = `${parent.name}.${field.name}`;
    if (parent === type) continue;
    if (getNamedType(field.type).name !== type.name) {
      if (!NODE_LOOKUPS.has(name)) unchecked.push(name);
      continue;
    }
    const options = fieldOptions(field);
    if (options.authScopes !== undefined && isDeepStrictEqual(options.authScopes, scope)) continue;
    if (isRoot(target, parent)) {
      unchecked.push(name);
      continue;
    }
    const parentScope = typeScope(parent);
    if (parentScope !== undefined) {
      if (!isDeepStrictEqual(parentScope, scope)) unchecked.push(name);
      else if (options.skipTypeScopes) unchecked.push(...uncheckedWaysIn(target, parent, scope, seen));
      continue;
    }
    unchecked.push(...uncheckedWaysIn(target, parent, scope, seen).map((inner) => `${inner} > ${name}`));
  }
  return unchecked;
}

describe('types checked on entry', () => {
  it('are License and Timesheet, whose fields skip the per-object scope check', () => {
    expect(typesCheckedOnEntry(schema).map((t) => t.name).sort()).toEqual(['License', 'Timesheet']);
  });

  it('are reached through these fields, all found by the walk', () => {
    const names = (type: string) => waysIn(schema, schema.getType(type)!).map(({ parent, field }) => `${parent.name}.${field.name}`).sort();
    expect(names('License')).toEqual(['Query.node', 'Query.nodes', 'StaffLicensesConnectionEdge.node']);
    expect(names('StaffLicensesConnectionEdge')).toEqual(['StaffLicensesConnection.edges']);
    expect(names('StaffLicensesConnection')).toEqual(['Staff.licenses']);
    expect(names('Timesheet')).toEqual([
      'Query.node',
      'Query.nodes',
      'Query.timesheet',
      'QueryTimesheetsConnectionEdge.node',
      'SiteTimesheetsConnectionEdge.node',
    ]);
  });

  it('are entered only through fields that check the same scope', () => {
    for (const type of typesCheckedOnEntry(schema)) {
      expect({ type: type.name, unchecked: uncheckedWaysIn(schema, type, typeScope(type)) }).toEqual({
        type: type.name,
        unchecked: [],
      });
    }
  });

  it('keep the type check on every field they inherit (the Node id)', () => {
    for (const type of typesCheckedOnEntry(schema)) {
      expect(fieldOptions(type.getFields().id!).skipTypeScopes).toBeUndefined();
    }
  });

  it('finds a way in that does not check the scope', () => {
    const scratch = new SchemaBuilder<{ AuthScopes: { developer: boolean; timesheet: boolean } }>({
      plugins: [ScopeAuthPlugin],
      scopeAuth: { authScopes: () => ({ developer: true, timesheet: false }) },
    });
    const Secret = scratch.objectRef<{ v: string }>('Secret').implement({
      authScopes: { developer: true },
      fields: (t) => ({ v: t.exposeString('v', { skipTypeScopes: true }) }),
    });
    const Holder = scratch.objectRef<{ v: string }>('Holder').implement({
      authScopes: { developer: true, timesheet: true },
      fields: (t) => ({ secret: t.field({ type: Secret, resolve: (h) => h }) }),
    });
    const Wrapper = scratch.objectRef<{ v: string }>('Wrapper').implement({
      fields: (t) => ({ secrets: t.field({ type: [Secret], resolve: (w) => [w] }) }),
    });
    scratch.queryType({
      fields: (t) => ({
        checked: t.field({ type: Secret, authScopes: { developer: true }, resolve: () => ({ v: 'a' }) }),
        otherScope: t.field({ type: Secret, authScopes: { timesheet: true }, resolve: () => ({ v: 'a' }) }),
        bare: t.field({ type: Secret, resolve: () => ({ v: 'a' }) }),
        holder: t.field({ type: Holder, resolve: () => ({ v: 'a' }) }),
        wrapper: t.field({ type: Wrapper, resolve: () => ({ v: 'a' }) }),
        checkedWrapper: t.field({ type: Wrapper, authScopes: { developer: true }, resolve: () => ({ v: 'a' }) }),
      }),
    });
    const built = scratch.toSchema();
    const [secret] = typesCheckedOnEntry(built);
    expect(secret?.name).toBe('Secret');
    expect(uncheckedWaysIn(built, secret!, { developer: true }).sort()).toEqual([
      'Holder.secret',
      'Query.bare',
      'Query.otherScope',
      'Query.wrapper > Wrapper.secrets',
    ]);
  });
});
