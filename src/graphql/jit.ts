import {
  BREAK,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  isEnumType,
  isNonNullType,
  isSpecifiedScalarType,
  Kind,
  OperationTypeNode,
  typeFromAST,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** Documents longer than this many characters are never compiled (compiling one blocks the process for milliseconds). */
const MAX_DOCUMENT_LENGTH = 3_000;

/**
 * The GRAPHQL_EXECUTOR=compiled plugin: a query `compilable` proves graphql-jit answers as
 * graphql-js does runs compiled (on its first run), given the variables graphql-js coerced (so
 * graphql-js words a refusal). A result with any error, or a throw, is dropped and graphql-js runs
 * the query again with the same context (queries only read; the one exception: a resolver's error
 * in a checked-in document, below). Compiled forms are kept per document object: yoga's parse
 * cache hands out one per text (and bounds how many), and the checked-in operations are fixed.
 */
export function jitPlugin(): Plugin {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  const compiledFor = (args: ExecutionArgs, operation: OperationDefinitionNode): CompiledQuery | null => {
    let operations = compiled.get(args.document);
    if (!operations) compiled.set(args.document, (operations = new Map()));
    const name = operation.name?.value ?? '';
    let entry = operations.get(name);
    if (entry === undefined) {
      const query = (args.document.loc?.source.body.length ?? 0) <= MAX_DOCUMENT_LENGTH && compilable(args.schema, args.document, operation)
        ? compileQuery(args.schema, args.document, operation.name?.value, { disablingCapturingStackErrors: true })
        : null;
      entry = query && isCompiledQuery(query) ? query : null;
      operations.set(name, entry);
    }
    return entry;
  };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== OperationTypeNode.QUERY) return;
      const query = compiledFor(args, operation);
      if (!query) return;
      const standard = executeFn as (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>;
      setExecuteFn(((executionArgs: ExecutionArgs) => {
        const variables = getVariableValues(executionArgs.schema, operation.variableDefinitions ?? [], executionArgs.variableValues ?? {});
        if (variables.errors) return standard(executionArgs);
        const settle = (result: ExecutionResult) => {
          if (!result.errors && 'data' in result) return result;
          // A checked-in document carries no source, so nothing to locate: a resolver's error (one
          // with an original error) is graphql-js's but for the empty `locations` graphql-jit
          // gives it, so a REST read answered 404 does not run twice.
          if (!executionArgs.document.loc && 'data' in result && result.errors?.every((error) => error.originalError)) {
            return { ...result, errors: result.errors.map((error) => new GraphQLError(error.message, { path: error.path, originalError: error.originalError, extensions: error.extensions })) };
          }
          return standard(executionArgs);
        };
        try {
          const result = query.query(executionArgs.rootValue, executionArgs.contextValue, variables.coerced);
          return result instanceof Promise ? result.then(settle, () => standard(executionArgs)) : settle(result);
        } catch {
          return standard(executionArgs);
        }
      }) as typeof executeFn);
    },
  };
}

/** The variable types graphql-jit coerces to the same values graphql-js does, given graphql-js's coerced values. */
function sameCoercion(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).every((definition) => {
    const type = typeFromAST(schema, definition.type);
    const named = type && getNamedType(type);
    // Built-in scalars coerce a coerced value to itself; an enum only when its values are its names.
    return !!named && (isSpecifiedScalarType(named) || (isEnumType(named) && named.getValues().every((value) => value.value === value.name)));
  });
}

function holdsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(holdsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => holdsVariable(field.value));
  return false;
}

/**
 * Whether graphql-jit runs this operation as graphql-js does: a query whose variables graphql-jit
 * does not coerce its own way (sameCoercion), with no input object literal or list literal holding a
 * variable as an argument (graphql-jit sets a field whose variable is absent to null, where
 * graphql-js leaves it out), no `__schema` or `__type`, and no directive but @skip and @include
 * with a literal or non-null condition.
 */
export function compilable(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== OperationTypeNode.QUERY || !sameCoercion(schema, operation)) return false;
  const nonNullVariables = new Set(
    (operation.variableDefinitions ?? []).filter((definition) => isNonNullType(typeFromAST(schema, definition.type))).map((definition) => definition.variable.name.value),
  );
  let ok = true;
  const refuse = () => {
    ok = false;
    return BREAK;
  };
  visit(document, {
    // The variables' own directives and defaults are graphql-js's business (it coerces them).
    VariableDefinition: () => false,
    Field: (field) => (field.name.value === '__schema' || field.name.value === '__type' ? refuse() : undefined),
    Argument: ({ value }) => (value.kind === Kind.OBJECT || (value.kind === Kind.LIST && holdsVariable(value)) ? refuse() : undefined),
    Directive(directive) {
      const name = directive.name.value;
      const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
      const fixed = condition !== undefined && (condition.kind !== Kind.VARIABLE || nonNullVariables.has(condition.name.value));
      return (name !== 'skip' && name !== 'include') || !fixed ? refuse() : undefined;
    },
  });
  return ok;
}
