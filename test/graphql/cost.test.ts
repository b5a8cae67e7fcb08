import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { costReadsVariables, operationCost } from '../../src/graphql/cost.js';
import { schema } from '../../src/graphql/schema.js';

const cost = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  operationCost(schema, parse(query), operationName, variables);

describe('operationCost', () => {
  const LITERAL = '{ sites(first: 10) { edges { node { siteName timesheets(first: 50) { edges { node { timesheetId status } } } } } } }';
  const VARIABLES = 'query ($s: Int, $t: Int) { sites(first: $s) { edges { node { siteName timesheets(first: $t) { edges { node { timesheetId status } } } } } } }';

  it('counts a page size passed as a variable like the same size written in the document', () => {
    expect(cost(VARIABLES, { s: 10, t: 50 })).toBe(cost(LITERAL));
    expect(cost(VARIABLES, { s: 100, t: 100 })).toBeGreaterThan(cost(LITERAL)! * 19);
  });

  it('takes a variable’s default value, and counts a size left out as the lists’ default of 20', () => {
    const withDefaults = 'query ($s: Int = 10, $t: Int = 50) { sites(first: $s) { edges { node { siteName timesheets(first: $t) { edges { node { timesheetId status } } } } } } }';
    expect(cost(withDefaults)).toBe(cost(LITERAL));
    expect(cost(withDefaults, { s: null, t: null })).toBe(cost('{ sites(first: 20) { edges { node { siteName timesheets(first: 20) { edges { node { timesheetId status } } } } } } }'));
    expect(cost(VARIABLES, {})).toBe(cost('{ sites { edges { node { siteName timesheets { edges { node { timesheetId status } } } } } } }'));
    expect(cost('{ sites { edges { node { siteName } } } }')).toBe(cost('{ sites(first: 20) { edges { node { siteName } } } }'));
  });

  it('counts fields reached through fragments and through last', () => {
    const spread = 'query ($n: Int) { sites(last: $n) { edges { node { ...S } } } } fragment S on Site { siteName timesheets(first: $n) { edges { node { timesheetId } } } }';
    expect(cost(spread, { n: 100 })).toBeGreaterThan(cost(spread, { n: 10 })! * 50);
    const inline = 'query ($n: Int) { node(id: "x") { ... on Site { timesheets(first: $n) { edges { node { timesheetId } } } } } }';
    expect(cost(inline, { n: 100 })).toBeGreaterThan(cost(inline, { n: 1 })! * 50);
  });

  it('costs the operation the request names', () => {
    const two = 'query Small { sites(first: 1) { edges { node { siteName } } } } query Large { sites(first: 100) { edges { node { siteName } } } }';
    expect(cost(two, {}, 'Large')).toBeGreaterThan(cost(two, {}, 'Small')! * 50);
    expect(cost(two)).toBeUndefined();
  });

  it('tells the documents whose cost depends on the variables: a page size given as one, in a fragment too', () => {
    expect(costReadsVariables(parse(VARIABLES))).toBe(true);
    expect(costReadsVariables(parse('query ($n: Int) { sites(last: $n) { edges { node { siteName } } } }'))).toBe(true);
    expect(costReadsVariables(parse('query ($n: Int) { ...F } fragment F on Query { sites(first: $n) { edges { node { siteName } } } }'))).toBe(true);
    expect(costReadsVariables(parse(LITERAL))).toBe(false);
    // Other arguments given as variables leave the cost alone.
    expect(costReadsVariables(parse('query ($id: Int!) { timesheet(timesheetId: $id) { timesheetId } }'))).toBe(false);
    const other = 'query ($id: Int!) { timesheet(timesheetId: $id) { timesheetId } }';
    expect(cost(other, { id: 1 })).toBe(cost(other, { id: 2 }));
  });
});
