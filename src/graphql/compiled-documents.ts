import {
  getNamedType,
  isEnumType,
  isNonNullType,
  isSpecifiedScalarType,
  Kind,
  OperationTypeNode,
  typeFromAST,
  visit,
  BREAK,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { setBounded } from '../shared/bounded-map.js';

/**
 * The documents callers send to /graphql, compiled with graphql-jit once per document and
 * operation, in a bounded least-recently-used cache. Only operations on which graphql-jit is known
 * to behave as graphql-js does are compiled (`compilable` below), once they have run
 * `compileAfter` times; the rest are remembered as not compilable, so the check runs once per
 * document too. Compiling blocks the event loop for about half a millisecond for a short query
 * and grows with the document, hence the bound on a document's length.
 */

export interface CompiledDocumentsOptions {
  /** How many documents are kept, compiled or not; the least recently used goes first. */
  maxDocuments: number;
  /** Documents whose source is longer than this many characters are never compiled. */
  maxDocumentLength: number;
  /** An operation is compiled when it is executed for this many times while its document is held (1: the first time). */
  compileAfter: number;
}

/** The cache's bounds in the gateway (a document is at most GRAPHQL_MAX_TOKENS tokens long as well). */
export const COMPILED_DOCUMENTS: CompiledDocumentsOptions = { maxDocuments: 500, maxDocumentLength: 3_000, compileAfter: 10 };

/**
 * Per operation: how many times it has run while not yet compiled, its compiled form, or `null`
 * when it is never compiled.
 */
type Entry = number | CompiledQuery | null;

export class CompiledDocuments {
  /** Per document (by identity: yoga's parse cache hands out one object per text), per operation name. */
  private readonly documents = new Map<DocumentNode, Map<string, Entry>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: CompiledDocumentsOptions,
  ) {}

  /** Operations answered by their compiled form, and those run again on the standard executor after an error. */
  readonly counts = { compiled: 0, retried: 0 };

  /** How many documents are held. */
  get size(): number {
    return this.documents.size;
  }

  /** The compiled operation, or undefined when it runs on the standard executor (this time, or always). */
  compiled(document: DocumentNode, operation: OperationDefinitionNode): CompiledQuery | undefined {
    const name = operation.name?.value ?? '';
    let operations = this.documents.get(document);
    if (operations) {
      // Most recently used last: re-inserting moves it to the end of the map's order.
      this.documents.delete(document);
      this.documents.set(document, operations);
    } else {
      operations = new Map();
      setBounded(this.documents, document, operations, this.options.maxDocuments);
    }
    const known = operations.get(name);
    if (known === null) return undefined;
    if (known !== undefined && typeof known !== 'number') return known;
    if (known === undefined && !this.worthCompiling(document, operation)) {
      operations.set(name, null);
      return undefined;
    }
    // Compiling costs about as much as tens of executions, so only an operation that keeps
    // coming back is compiled.
    const runs = (known ?? 0) + 1;
    if (runs < this.options.compileAfter) {
      operations.set(name, runs);
      return undefined;
    }
    const compiled = compileQuery(this.schema, document, operation.name?.value, { disablingCapturingStackErrors: true });
    const entry = isCompiledQuery(compiled) ? compiled : null;
    operations.set(name, entry);
    return entry ?? undefined;
  }

  private worthCompiling(document: DocumentNode, operation: OperationDefinitionNode): boolean {
    const length = document.loc?.source.body.length ?? Number.POSITIVE_INFINITY;
    return length <= this.options.maxDocumentLength && compilable(this.schema, document, operation);
  }
}

/** The variable types graphql-jit coerces to the same values graphql-js does, given graphql-js's coerced values. */
function sameCoercion(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (!type) return false;
    const named = getNamedType(type);
    // Built-in scalars coerce a coerced value to itself; an enum only when its values are its names.
    if (isSpecifiedScalarType(named)) continue;
    if (isEnumType(named) && named.getValues().every((value) => value.value === value.name)) continue;
    return false;
  }
  return true;
}

function holdsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(holdsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => holdsVariable(field.value));
  return false;
}

/**
 * Whether graphql-jit runs this operation as graphql-js does. It is not compiled when it is not a
 * query (mutations and subscriptions always run on graphql-js); when a variable is of a custom
 * scalar, an input object or an enum whose values are not its names (graphql-jit coerces those
 * its own way); when an argument is an input object literal, or a list literal holding a
 * variable (graphql-jit sets a field whose variable is absent to null, where graphql-js leaves it
 * out); when it asks for the schema (`__schema`, `__type`); when it carries a directive other
 * than @skip and @include, or one of those with a variable that may be null.
 */
export function compilable(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  if (operation.operation !== OperationTypeNode.QUERY || !sameCoercion(schema, operation)) return false;
  const nonNullVariables = new Set(
    (operation.variableDefinitions ?? []).filter((definition) => isNonNullType(typeFromAST(schema, definition.type))).map((definition) => definition.variable.name.value),
  );
  let ok = true;
  visit(document, {
    // The variables' own directives and defaults are graphql-js's business (it coerces them).
    VariableDefinition: () => false,
    Field(field) {
      if (field.name.value === '__schema' || field.name.value === '__type') {
        ok = false;
        return BREAK;
      }
      return undefined;
    },
    Argument(argument) {
      const { value } = argument;
      if (value.kind === Kind.OBJECT || (value.kind === Kind.LIST && holdsVariable(value))) {
        ok = false;
        return BREAK;
      }
      return undefined;
    },
    Directive(directive) {
      const name = directive.name.value;
      const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
      const fixed = condition !== undefined && (condition.kind !== Kind.VARIABLE || nonNullVariables.has(condition.name.value));
      if ((name !== 'skip' && name !== 'include') || !fixed) {
        ok = false;
        return BREAK;
      }
      return undefined;
    },
  });
  return ok;
}
