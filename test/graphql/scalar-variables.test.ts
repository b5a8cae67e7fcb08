import { getOperationAST, getVariableValues, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { scalarVariablesCoercer } from '../../src/graphql/scalar-variables.js';
import { schema } from '../../src/graphql/schema.js';

/**
 * The built-in scalars' variable coercion (src/graphql/scalar-variables.ts) that the compiled
 * runs use before graphql-js's: for every value it accepts, it must give what graphql-js gives;
 * everything graphql-js refuses it must hand to graphql-js.
 */

const operationOf = (text: string): OperationDefinitionNode => getOperationAST(parse(text)) as OperationDefinitionNode;

const SCALARS = 'query ($i: Int!, $f: Float, $s: String!, $b: Boolean, $id: ID, $n: Int) { timesheet(timesheetId: $i) { timesheetId } }';

const VALUES: unknown[] = [
  0, 1, -1, 7.5, 2147483647, 2147483648, -2147483648, -2147483649, 1e300, Number.NaN, Number.POSITIVE_INFINITY, -0,
  '', '7', 'text', true, false, null, [], [1], {}, { a: 1 }, undefined,
];

describe('scalar variables', () => {
  it('coerces every value graphql-js accepts to what graphql-js gives, and hands back every value it refuses', () => {
    const operation = operationOf(SCALARS);
    const coercer = scalarVariablesCoercer(schema, operation);
    expect(coercer).not.toBeNull();
    const base = { i: 1, f: 1.5, s: 'x', b: true, id: 'a', n: 2 };
    let accepted = 0;
    let refused = 0;
    for (const name of Object.keys(base)) {
      const inputsList: Record<string, unknown>[] = VALUES.map((value) => ({ ...base, [name]: value }));
      // Absent, and an extra variable the operation does not declare.
      const { [name as keyof typeof base]: _left, ...without } = base;
      inputsList.push(without, { ...base, extra: { deep: [1] } });
      for (const inputs of inputsList) {
        const expected = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
        const fast = coercer!(inputs);
        if (fast === undefined) {
          // Handed to graphql-js, which gives the answer: allowed for anything, required for a refusal.
          refused++;
          continue;
        }
        accepted++;
        expect(expected.errors, JSON.stringify(inputs)).toBeUndefined();
        expect(Object.entries(fast)).toEqual(Object.entries(expected.coerced!));
      }
    }
    // Both ways were taken: the check above compared real answers.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });

  it('gives what graphql-js gives for the values the known queries send', () => {
    const operation = operationOf(SCALARS);
    const coercer = scalarVariablesCoercer(schema, operation)!;
    const inputs = { i: 42, f: 2, s: 'after', b: false, id: 17, n: null };
    expect(coercer(inputs)).toEqual({ i: 42, f: 2, s: 'after', b: false, id: '17', n: null });
    expect(coercer({ i: 42, s: 'x' })).toEqual(getVariableValues(schema, operation.variableDefinitions ?? [], { i: 42, s: 'x' }).coerced);
  });

  it('refuses what graphql-js refuses', () => {
    const operation = operationOf(SCALARS);
    const coercer = scalarVariablesCoercer(schema, operation)!;
    for (const inputs of [{ s: 'x' }, { i: null, s: 'x' }, { i: 1.5, s: 'x' }, { i: '1', s: 'x' }, { i: 1, s: 2 }, { i: 1, s: 'x', id: 1.5 }, { i: 1, s: 'x', f: Number.NaN }]) {
      expect(getVariableValues(schema, operation.variableDefinitions ?? [], inputs).errors, JSON.stringify(inputs)).toBeDefined();
      expect(coercer(inputs), JSON.stringify(inputs)).toBeUndefined();
    }
  });

  it.each([
    ['a default value', 'query ($n: Int = 3) { staffs(first: $n) { edges { cursor } } }'],
    ['a list', 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }'],
    ['an enum or input object type', 'query ($x: NoSuchType) { __typename }'],
  ])('leaves an operation with %s to graphql-js', (_name, text) => {
    expect(scalarVariablesCoercer(schema, operationOf(text))).toBeNull();
  });

  it('takes an operation without variables', () => {
    const coercer = scalarVariablesCoercer(schema, operationOf('{ __typename }'));
    expect(coercer?.({ anything: 1 })).toEqual({});
  });
});
