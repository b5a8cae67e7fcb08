import { randomBytes } from 'node:crypto';
import { getNamedType, getNullableType, isInterfaceType, isListType, isObjectType, parse, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { listLengthRule, operationCost } from '../../src/graphql/cost.js';
import { schema } from '../../src/graphql/schema.js';
import { MAX_DELIVERY_ATTEMPTS_SHOWN } from '../../src/graphql/types/delivery.js';
import { MAX_SUBSCRIPTIONS_SHOWN } from '../../src/graphql/types/subscriber.js';
import { CursorCodec } from '../../src/shared/pagination/cursor-codec.js';
import { EVENT_CATALOG } from '../../src/webhooks/catalog.js';

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

  it('counts the same whatever the variables that are not list lengths', () => {
    const other = 'query ($id: Int!) { timesheet(timesheetId: $id) { timesheetId } }';
    expect(cost(other, { id: 1 })).toBe(cost(other, { id: 2 }));
  });
});

/**
 * How many items the cost counts for the list field written in place of HOLE: the cost with the
 * list (one leaf per item) is compared with the cost of one and of two leaves in the same place,
 * which tells the list's share apart from everything around it. With a field with a selection
 * costing 2 plus 1.5 times its children, n items of one leaf add 1.5 × (2 + 1.5) × n where a leaf adds 1.5.
 */
function itemsCounted(template: string, list: string, variables?: Record<string, unknown>): number {
  const withList = cost(template.replace('HOLE', list), variables)!;
  const oneLeaf = cost(template.replace('HOLE', '__typename'), variables)!;
  const twoLeaves = cost(template.replace('HOLE', '__typename __typename'), variables)!;
  const ratio = (withList - oneLeaf) / (twoLeaves - oneLeaf);
  return Math.round(((ratio + 1) * 1.5) / 5.25);
}

describe('every list counts its real length', () => {
  const ids = (n: number, id = (i: number) => `U2l0ZToxMDA${i}`) => Array.from({ length: n }, (_, i) => id(i));

  it('counts nodes(ids:) by the number of ids, written or passed as a variable, repeated ids included', () => {
    expect(itemsCounted('{ HOLE }', `nodes(ids: ${JSON.stringify(ids(1))}) { __typename }`)).toBe(1);
    expect(itemsCounted('{ HOLE }', `nodes(ids: ${JSON.stringify(ids(100))}) { __typename }`)).toBe(100);
    expect(itemsCounted('{ HOLE }', `nodes(ids: ${JSON.stringify(ids(100, () => 'U2l0ZToxMDAx'))}) { __typename }`)).toBe(100);
    expect(itemsCounted('query ($ids: [ID!]!) { HOLE }', 'nodes(ids: $ids) { __typename }', { ids: ids(100) })).toBe(100);
    // A single id given where a list is expected is a list of one (input coercion).
    expect(itemsCounted('query ($ids: [ID!]!) { HOLE }', 'nodes(ids: $ids) { __typename }', { ids: 'U2l0ZToxMDAx' })).toBe(1);
  });

  it('counts a page reached through a cursor by the page size the cursor carries', () => {
    const codec = new CursorCodec(randomBytes(32));
    const cursor = codec.encode({ kind: 'site', owner: 1, filter: null, size: 100, key: 7 });
    const page = (args: string) => `sites(${args}) { edges { node { siteName } } }`;
    expect(cost(`{ ${page(`after: "${cursor}"`)} }`)).toBe(cost(`{ ${page('first: 100')} }`));
    expect(cost(`{ ${page(`before: "${cursor}"`)} }`)).toBe(cost(`{ ${page('first: 100')} }`));
    expect(cost(`query ($c: String) { ${page('after: $c')} }`, { c: cursor })).toBe(cost(`{ ${page('first: 100')} }`));
    // A size given beside the cursor is the page's size.
    expect(cost(`{ ${page(`after: "${cursor}", first: 5`)} }`)).toBe(cost(`{ ${page('first: 5')} }`));
    // A cursor whose size cannot be read will be refused; until then it counts the largest page.
    expect(cost(`{ ${page('after: "not-a-cursor"')} }`)).toBe(cost(`{ ${page('first: 100')} }`));
    const small = codec.encode({ kind: 'site', owner: 1, filter: null, size: 3, key: 7 });
    expect(cost(`{ ${page(`after: "${small}"`)} }`)).toBe(cost(`{ ${page('first: 3')} }`));
  });

  it('counts a list without page arguments by its cap', () => {
    const subscriber = '{ subscriber(subscriberId: 1) { HOLE } }';
    const subscriptions = (args: string) => `subscriptions${args} { edges { node { subscriptionId } } }`;
    expect(cost(subscriber.replace('HOLE', subscriptions('')))).toBe(cost(subscriber.replace('HOLE', subscriptions(`(first: ${MAX_SUBSCRIPTIONS_SHOWN})`))));
    expect(MAX_SUBSCRIPTIONS_SHOWN).toBe(1000);
    expect(cost(subscriber.replace('HOLE', subscriptions('(first: 5)')))).toBeLessThan(cost(subscriber.replace('HOLE', subscriptions('')))! / 100);
    expect(itemsCounted(subscriber, 'eventFilters { event }')).toBe(EVENT_CATALOG.length);
    expect(itemsCounted('{ HOLE }', 'webhookEvents { event }')).toBe(EVENT_CATALOG.length);
    const delivery = '{ subscriptionDeliveries(subscriptionId: 1, first: 1) { edges { node { HOLE } } } }';
    expect(itemsCounted(delivery, 'attempts { httpStatus }')).toBe(MAX_DELIVERY_ATTEMPTS_SHOWN);
  });

  it('knows the length of every list field in the schema: a page, a list argument or a cap', () => {
    const unbounded: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        const list = isListType(getNullableType(field.type));
        const returnsConnection = isObjectType(getNamedType(field.type)) && 'edges' in (getNamedType(field.type) as GraphQLObjectType).getFields();
        const rule = listLengthRule(field);
        // A connection's edges are as many as the page of the field that returned the connection.
        const edges = field.name === 'edges' && 'pageInfo' in type.getFields();
        if ((list || returnsConnection) && rule === undefined && !edges) unbounded.push(`${type.name}.${field.name}`);
        // A connection is a page: its edges are as many as the field that returned it asks for.
        if (returnsConnection && rule !== 'page') unbounded.push(`${type.name}.${field.name} (a connection without page arguments)`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('counts a page by the records it reads, whatever is selected from them', () => {
    const ids = cost('{ timesheets(first: 100) { edges { node { timesheetId } } } }')!;
    expect(cost('{ timesheets(first: 100) { __typename } }')).toBe(ids);
    expect(cost('{ timesheets(first: 100) { pageInfo { hasNextPage } } }')).toBe(ids);
    expect(cost('{ timesheets(first: 100) { edges { node { timesheetId status } } } }')).toBeGreaterThan(ids);
  });
});
