import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  Kind,
  type GraphQLScalarType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/** The value graphql-js coerces a variable's value to, or undefined where it would refuse it. */
type ScalarCoercion = (value: unknown) => unknown;

const MAX_INT = 2147483647;
const MIN_INT = -2147483648;

/**
 * graphql-js's `parseValue` of each built-in scalar, for the values it accepts; anything it
 * refuses gives undefined (graphql-js words the refusal, see compiled-run.ts).
 */
const BUILT_IN: ReadonlyMap<GraphQLScalarType, ScalarCoercion> = new Map<GraphQLScalarType, ScalarCoercion>([
  [GraphQLInt, (value) => (typeof value === 'number' && Number.isInteger(value) && value <= MAX_INT && value >= MIN_INT ? value : undefined)],
  [GraphQLFloat, (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)],
  [GraphQLString, (value) => (typeof value === 'string' ? value : undefined)],
  [GraphQLBoolean, (value) => (typeof value === 'boolean' ? value : undefined)],
  [GraphQLID, (value) => (typeof value === 'string' ? value : typeof value === 'number' && Number.isInteger(value) ? String(value) : undefined)],
]);

interface ScalarVariable {
  name: string;
  nonNull: boolean;
  coerce: ScalarCoercion;
}

/**
 * Coerces an operation's variables the way graphql-js's `getVariableValues` does, for the
 * values it accepts, or gives undefined for graphql-js to coerce them (and word a refusal).
 */
export type ScalarVariablesCoercer = (inputs: Readonly<Record<string, unknown>>) => Record<string, unknown> | undefined;

const hasOwn = Object.prototype.hasOwnProperty;

function coercerOf(variables: readonly ScalarVariable[]): ScalarVariablesCoercer {
  return (inputs) => {
    const coerced: Record<string, unknown> = {};
    for (const variable of variables) {
      if (!hasOwn.call(inputs, variable.name)) {
        // Absent: a non-null one is refused; a nullable one without a default is left out.
        if (variable.nonNull) return undefined;
        continue;
      }
      const value = inputs[variable.name];
      if (value === null) {
        if (variable.nonNull) return undefined;
        coerced[variable.name] = null;
        continue;
      }
      const scalar = variable.coerce(value);
      if (scalar === undefined) return undefined;
      coerced[variable.name] = scalar;
    }
    return coerced;
  };
}

/** Per operation: its coercer, or null when a variable is not a built-in scalar without a default. */
const coercers = new WeakMap<OperationDefinitionNode, ScalarVariablesCoercer | null>();

/**
 * The coercer for an operation whose variables are all built-in scalars (Int, Float, String,
 * Boolean, ID; nullable or not) without default values, as the known queries' variables mostly
 * are; null for any other operation, whose variables graphql-js coerces. Built once per operation.
 * The schema's scalar must be graphql-js's own, so its `parseValue` is the one written above.
 */
export function scalarVariablesCoercer(schema: GraphQLSchema, operation: OperationDefinitionNode): ScalarVariablesCoercer | null {
  let coercer = coercers.get(operation);
  if (coercer !== undefined) return coercer;
  const variables: ScalarVariable[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const nonNull = definition.type.kind === Kind.NON_NULL_TYPE;
    const named = definition.type.kind === Kind.NON_NULL_TYPE ? definition.type.type : definition.type;
    const scalar = named.kind === Kind.NAMED_TYPE ? schema.getType(named.name.value) : undefined;
    const coerce = scalar ? BUILT_IN.get(scalar as GraphQLScalarType) : undefined;
    if (definition.defaultValue !== undefined || coerce === undefined) {
      variables.length = 0;
      coercer = null;
      break;
    }
    variables.push({ name: definition.variable.name.value, nonNull, coerce });
  }
  if (coercer === undefined) coercer = coercerOf(variables);
  coercers.set(operation, coercer);
  return coercer;
}
