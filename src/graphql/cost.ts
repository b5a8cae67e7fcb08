import {
  BREAK,
  getNamedType,
  getOperationAST,
  GraphQLError,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DEFAULT_PAGE_SIZE } from '../shared/pagination/keyset.js';
import { isCallerDocument } from './caller-document.js';

/**
 * The cost of an operation, as GraphQL Armor's cost rule counts it (a field with a selection
 * costs 2, a leaf 1, a child 1.5 times its own cost, a list page its size times the cost of one
 * item), with one difference: a page size is the one the request asks for, whether it is written
 * in the document or passed as a variable. A page size left out, or a variable without a value
 * or default, counts as the lists' default page size.
 */

const OBJECT_COST = 2;
const SCALAR_COST = 1;
const DEPTH_FACTOR = 1.5;

interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Readonly<Record<string, unknown>>;
}

/** The page size a field asks for: its `first` or `last`, a literal or a variable's value. */
function pageSize(field: FieldNode, input: CostInput): number | undefined {
  const argument = field.arguments?.find((arg) => arg.name.value === 'first' || arg.name.value === 'last');
  if (!argument) return undefined;
  return intOf(argument.value, input);
}

function intOf(value: ValueNode, input: CostInput): number | undefined {
  if (value.kind === Kind.INT) return Number.parseInt(value.value, 10);
  if (value.kind !== Kind.VARIABLE) return undefined;
  const name = value.name.value;
  const given = input.variables[name];
  if (typeof given === 'number' && Number.isInteger(given)) return given;
  if (given !== undefined && given !== null) return undefined;
  const definition = input.operation.variableDefinitions?.find((v) => v.variable.name.value === name);
  // An explicit null is no size at all: the list's default applies.
  return definition?.defaultValue && given === undefined ? intOf(definition.defaultValue, input) : undefined;
}

/** Whether a field of this type is a page of a list: it takes `first`. */
function isPaged(parent: GraphQLCompositeType | undefined, field: FieldNode): boolean {
  if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return false;
  return parent.getFields()[field.name.value]?.args.some((arg) => arg.name === 'first') ?? false;
}

function childType(parent: GraphQLCompositeType | undefined, field: FieldNode): GraphQLCompositeType | undefined {
  if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return undefined;
  const type = parent.getFields()[field.name.value]?.type;
  const named = type ? getNamedType(type) : undefined;
  return named && isCompositeType(named) ? named : undefined;
}

function typeNamed(schema: GraphQLSchema, name: string | undefined, fallback: GraphQLCompositeType | undefined) {
  const type = name ? schema.getType(name) : undefined;
  return type && isCompositeType(type) ? type : fallback;
}

function selectionCost(set: SelectionSetNode, parent: GraphQLCompositeType | undefined, input: CostInput, fragments: Map<string, number>): number {
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += DEPTH_FACTOR * fieldCost(selection, parent, input, fragments);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = typeNamed(input.schema, selection.typeCondition?.name.value, parent);
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
    const type = typeNamed(input.schema, definition.typeCondition.name.value, undefined);
    cost = OBJECT_COST + selectionCost(definition.selectionSet, type, input, fragments);
  }
  fragments.set(name, cost);
  return cost;
}

function fieldCost(field: FieldNode, parent: GraphQLCompositeType | undefined, input: CostInput, fragments: Map<string, number>): number {
  if (!field.selectionSet) return SCALAR_COST;
  // Introspection is bounded by the schema, not by the caller (and switched off in production).
  if (field.name.value === '__schema' || field.name.value === '__type') return 0;
  const own = OBJECT_COST + selectionCost(field.selectionSet, childType(parent, field), input, fragments);
  const size = pageSize(field, input) ?? (isPaged(parent, field) ? DEFAULT_PAGE_SIZE : 1);
  return own * Math.max(size, 1);
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
  const input: CostInput = { schema, document, operation, variables: variables ?? {} };
  const root = schema.getRootType(operation.operation) ?? undefined;
  return selectionCost(operation.selectionSet, root, input, new Map()) / DEPTH_FACTOR;
}

/** Whether any page size in the document (a `first` or `last`) is a variable: only then does the cost depend on the variables. */
export function costReadsVariables(document: DocumentNode): boolean {
  let reads = false;
  visit(document, {
    Argument(node) {
      if ((node.name.value === 'first' || node.name.value === 'last') && node.value.kind === Kind.VARIABLE) {
        reads = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return reads;
}

/** The cost of the operation when it is over `maxCost`; undefined when it is within it. */
export function costOverLimit(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
  maxCost: number,
): number | undefined {
  const cost = operationCost(schema, document, operationName, variables);
  return cost !== undefined && cost > maxCost ? cost : undefined;
}

/**
 * Refuses a document sent to /graphql whose cost, with the request's variables, is over
 * `maxCost`, before anything runs. It is checked as the operation starts, not as a validation
 * rule: yoga caches validation by document, and the same document costs differently with
 * different variables. Operations the gateway runs itself (REST routes, webhook payloads) carry
 * no yoga request parameters and are trusted.
 */
export function costLimit(options: { maxCost: number; exposeLimits: boolean }): Plugin {
  const refusal = (cost: number) =>
    new GraphQLError(
      options.exposeLimits ? `Query Cost limit of ${options.maxCost} exceeded, found ${Math.ceil(cost)}.` : 'Query cost limit exceeded.',
      // The status of a refused document: 400 under application/graphql-response+json, 200 under application/json.
      { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { spec: true, status: 400 } } },
    );
  const check = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: Readonly<Record<string, unknown>> | null;
    contextValue: unknown;
  }): GraphQLError | undefined => {
    if (!isCallerDocument(args.contextValue)) return undefined;
    const cost = costOverLimit(args.schema, args.document, args.operationName, args.variableValues, options.maxCost);
    return cost === undefined ? undefined : refusal(cost);
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
