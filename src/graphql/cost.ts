import {
  getNamedType,
  getOperationAST,
  GraphQLError,
  isCompositeType,
  isUnionType,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { pageSizeOfCursor } from '../shared/pagination/cursor-codec.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/pagination/keyset.js';

/**
 * The cost of an operation, as GraphQL Armor's cost rule counts it (a field with a selection
 * costs 2, a leaf 1, a child 1.5 times its own cost, a list its length times the cost of one
 * item), with one difference: a list's length is the most it can return for this request. A
 * page counts the size the request asks for (`first`/`last`, written in the document or passed
 * as a variable), else the size its `after`/`before` cursor carries, else the list's default; a
 * list sized by an argument (`nodes(ids:)`) counts that argument's length; any other list counts
 * the cap declared on its field (listCap below). test/graphql/cost.test.ts walks the schema so
 * that no list field goes without one of these.
 */

const OBJECT_COST = 2;
const SCALAR_COST = 1;
const DEPTH_FACTOR = 1.5;
/**
 * What one item of a page counts at least, since a page reads its rows whatever is selected: the
 * cost of an edge, its node and one field (bench/cost-ceiling.ts measured the same CPU per row).
 */
const PAGE_ITEM_FLOOR = OBJECT_COST + DEPTH_FACTOR * (OBJECT_COST + DEPTH_FACTOR * (OBJECT_COST + DEPTH_FACTOR * SCALAR_COST));

/** Field extensions bounding a list: the most items it returns, or the argument whose length it has. */
const LIST_CAP = 'shiftgateListCap';
const LENGTH_ARGUMENT = 'shiftgateLengthArgument';

/** A field's extensions for a list that returns at most `maxItems` (a connection: when asked for no page). */
export const listCap = (maxItems: number) => ({ [LIST_CAP]: maxItems });

/** A field's extensions for a list with one item per item of its argument `name`. */
export const listLengthArgument = (name: string) => ({ [LENGTH_ARGUMENT]: name });

type AnyField = GraphQLField<unknown, unknown>;

type ListLengthRule = 'page' | 'argument' | 'cap';

const PAGE_ARGUMENTS = ['first', 'last'];
const CURSOR_ARGUMENTS = ['after', 'before'];

/**
 * What bounds a list field's length: its page arguments, an argument it has one item for, or a
 * declared cap. (A connection's edges count once: the field that returned the connection counts its page.)
 */
export function listLengthRule(field: AnyField): ListLengthRule | undefined {
  if (field.args.some((arg) => PAGE_ARGUMENTS.includes(arg.name))) return 'page';
  if (typeof field.extensions[LENGTH_ARGUMENT] === 'string') return 'argument';
  if (typeof field.extensions[LIST_CAP] === 'number') return 'cap';
  return undefined;
}

interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The request's variables, with the operation's defaults for those it leaves out. */
  variables: Readonly<Record<string, unknown>>;
}

function variablesWithDefaults(operation: OperationDefinitionNode, given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...given };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    // An explicit null stays null: no value at all, so the list's default applies.
    if (variables[name] === undefined && definition.defaultValue) variables[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return variables;
}

function argumentValue(field: FieldNode, name: string, input: CostInput): unknown {
  const argument = field.arguments?.find((arg) => arg.name.value === name);
  return argument ? valueFromASTUntyped(argument.value, input.variables) : undefined;
}

/** The page size a field asks for: its `first` or `last`. */
function pageSize(field: FieldNode, input: CostInput): number | undefined {
  const sizes = PAGE_ARGUMENTS.map((name) => argumentValue(field, name, input));
  return sizes.find((value): value is number => typeof value === 'number' && Number.isInteger(value));
}

/** The page size its cursor carries; a cursor that says none is refused as it runs, and counts the largest page until then. */
function cursorPageSize(field: FieldNode, input: CostInput): number | undefined {
  const cursor = CURSOR_ARGUMENTS.map((name) => argumentValue(field, name, input)).find((value) => value !== undefined && value !== null);
  if (cursor === undefined) return undefined;
  return (typeof cursor === 'string' ? pageSizeOfCursor(cursor) : undefined) ?? MAX_PAGE_SIZE;
}

/** The most items a list field returns for this request (its rule is listLengthRule's); 1 for a field that is not a list. */
function listLength(field: FieldNode, definition: AnyField | undefined, rule: ListLengthRule | undefined, input: CostInput): number {
  if (!definition) return pageSize(field, input) ?? 1;
  const cap = definition.extensions[LIST_CAP];
  const capped = typeof cap === 'number' ? cap : undefined;
  if (rule === 'page') return pageSize(field, input) ?? cursorPageSize(field, input) ?? capped ?? DEFAULT_PAGE_SIZE;
  if (rule === 'argument') {
    const value = argumentValue(field, definition.extensions[LENGTH_ARGUMENT] as string, input);
    // A single value where a list is expected is coerced to a list of one.
    return Array.isArray(value) ? value.length : 1;
  }
  return capped ?? 1;
}

function compositeType(type: GraphQLNamedType | null | undefined): GraphQLCompositeType | undefined {
  return type && isCompositeType(type) ? type : undefined;
}

const typeNamed = (schema: GraphQLSchema, name: string) => compositeType(schema.getType(name));

function selectionCost(set: SelectionSetNode, parent: GraphQLCompositeType | undefined, input: CostInput, fragments: Map<string, number>): number {
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += DEPTH_FACTOR * fieldCost(selection, parent, input, fragments);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value;
      const type = (condition && typeNamed(input.schema, condition)) || parent;
      cost += DEPTH_FACTOR * (OBJECT_COST + selectionCost(selection.selectionSet, type, input, fragments));
    } else {
      cost += DEPTH_FACTOR * (SCALAR_COST + DEPTH_FACTOR * fragmentCost(selection.name.value, input, fragments));
    }
  }
  return cost;
}

function fragmentCost(name: string, input: CostInput, fragments: Map<string, number>): number {
  const known = fragments.get(name);
  if (known !== undefined) return known;
  // A fragment that spreads itself is refused by validation; counting it once keeps this finite.
  fragments.set(name, 0);
  const definition = input.document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
  let cost = 0;
  if (definition?.kind === Kind.FRAGMENT_DEFINITION) {
    const type = typeNamed(input.schema, definition.typeCondition.name.value);
    cost = OBJECT_COST + selectionCost(definition.selectionSet, type, input, fragments);
  }
  fragments.set(name, cost);
  return cost;
}

function fieldCost(field: FieldNode, parent: GraphQLCompositeType | undefined, input: CostInput, fragments: Map<string, number>): number {
  if (!field.selectionSet) return SCALAR_COST;
  // Introspection is bounded by the schema, not by the caller (and switched off in production).
  if (field.name.value === '__schema' || field.name.value === '__type') return 0;
  const definition = parent && !isUnionType(parent) ? (parent.getFields()[field.name.value] as AnyField | undefined) : undefined;
  const rule = definition && listLengthRule(definition);
  const own = OBJECT_COST + selectionCost(field.selectionSet, compositeType(definition && getNamedType(definition.type)), input, fragments);
  return (rule === 'page' ? Math.max(own, PAGE_ITEM_FLOOR) : own) * Math.max(listLength(field, definition, rule, input), 1);
}

/** The cost of the operation the request runs (undefined when the document does not name one clearly). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): number | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const input: CostInput = { schema, document, variables: variablesWithDefaults(operation, variables ?? {}) };
  const root = schema.getRootType(operation.operation) ?? undefined;
  return selectionCost(operation.selectionSet, root, input, new Map()) / DEPTH_FACTOR;
}

/** What onExecute and onSubscribe both get. */
type OperationStart = { args: ExecutionArgs; setResultAndStopExecution: (result: ExecutionResult) => void };

/**
 * Refuses a document sent to /graphql whose cost, with the request's variables, is over
 * `maxCost`, before anything runs. It is checked as the operation starts, not as a validation
 * rule: yoga caches validation by document, and the same document costs differently with
 * different variables. Operations the gateway runs itself (REST routes, webhook and live-event
 * payloads) carry no yoga request parameters in their context and are trusted. A batch's
 * operations are also held to `maxCost` together, before any of them starts (src/server/graphql-endpoint.ts).
 */
export function costLimit(options: { maxCost: number; exposeLimits: boolean }): Plugin {
  const refuseOverLimit = ({ args, setResultAndStopExecution }: OperationStart) => {
    const context = args.contextValue;
    if (typeof context !== 'object' || context === null || !('params' in context)) return;
    const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues);
    if (cost === undefined || cost <= options.maxCost) return;
    const message = options.exposeLimits ? `Query Cost limit of ${options.maxCost} exceeded, found ${Math.ceil(cost)}.` : 'Query cost limit exceeded.';
    // The status of a refused document: 400 under application/graphql-response+json, 200 under application/json.
    const extensions = { code: 'GRAPHQL_VALIDATION_FAILED', http: { spec: true, status: 400 } };
    setResultAndStopExecution({ errors: [new GraphQLError(message, { extensions })] });
  };
  return { onExecute: refuseOverLimit, onSubscribe: refuseOverLimit };
}
