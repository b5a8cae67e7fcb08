import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
  type SelectionSetNode,
} from 'graphql';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/** The same schema, also allowing null (the JSON scalar's `{}` allows it already). */
function nullable(schema: JsonSchema): JsonSchema {
  return typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : schema;
}

/** JSON Schemas of the scalars the schema declares; a scalar not listed here is refused. */
const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
  DateTime: { type: 'string', format: 'date-time' },
  // Returned exactly as imported: any JSON value (in practice objects or arrays of objects).
  JSON: {},
};

/** One response key of a selection: its field definition and every node that selects it. */
interface SelectedField {
  field: GraphQLField<unknown, unknown>;
  nodes: FieldNode[];
  /** Selected through a fragment on another type, so present only for that type's objects. */
  conditional: boolean;
}

/**
 * Turns the selections of an operation into the JSON Schema of what it returns, walking the
 * GraphQL schema's own types: field names are response keys (aliases included), nullability and
 * lists follow the field types, descriptions are the fields' descriptions.
 */
export class SelectionSchemas {
  private readonly fragments: Map<string, FragmentDefinitionNode>;

  constructor(
    private readonly graphqlSchema: GraphQLSchema,
    document: DocumentNode,
  ) {
    this.fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
  }

  /** The fields a selection set selects on `type`, by response key, fragments included. */
  fields(type: GraphQLCompositeType, selectionSet: SelectionSetNode, conditional = false): Map<string, SelectedField> {
    const selected = new Map<string, SelectedField>();
    const add = (key: string, entry: SelectedField) => {
      const known = selected.get(key);
      if (known) known.nodes.push(...entry.nodes);
      else selected.set(key, entry);
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const key = selection.alias?.value ?? name;
        if (name === '__typename') continue;
        if (!isObjectType(type) && !('getFields' in type)) throw new Error(`cannot select ${name} on ${type.name}`);
        const field = (type as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields()[name];
        if (!field) throw new Error(`${type.name} has no field ${name}`);
        add(key, { field, nodes: [selection], conditional });
        continue;
      }
      const fragment =
        selection.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(selection.name.value) : selection;
      if (!fragment) throw new Error(`unknown fragment ${selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : ''}`);
      const condition = fragment.typeCondition ? this.graphqlSchema.getType(fragment.typeCondition.name.value) : type;
      if (!condition) throw new Error(`unknown type ${fragment.typeCondition?.name.value ?? ''}`);
      const onOther = condition.name !== type.name;
      for (const [key, entry] of this.fields(condition as GraphQLCompositeType, fragment.selectionSet, conditional || onOther)) add(key, entry);
    }
    return selected;
  }

  /** The selection one response key path leads to: its field type and merged sub-selections. */
  follow(root: GraphQLCompositeType, selectionSet: SelectionSetNode, path: readonly string[]): { type: GraphQLOutputType; selectionSet: SelectionSetNode } {
    let type: GraphQLOutputType = root;
    let selections = selectionSet;
    for (const key of path) {
      const named = getNamedType(type) as GraphQLCompositeType;
      const entry = this.fields(named, selections).get(key);
      if (!entry) throw new Error(`the selection on ${named.name} has no ${key}`);
      type = entry.field.type;
      selections = merged(entry.nodes);
    }
    return { type, selectionSet: selections };
  }

  /** The JSON Schema of a value of `type` selected with `selectionSet` (none for an input type). */
  valueSchema(type: GraphQLType, selectionSet?: SelectionSetNode): JsonSchema {
    if (isNonNullType(type)) return this.nonNullSchema(type.ofType, selectionSet);
    return nullable(this.nonNullSchema(type, selectionSet));
  }

  /** The JSON Schema of an object of `type`: every selected key present, no other key. */
  objectSchema(type: GraphQLCompositeType, selectionSet: SelectionSetNode): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, { field, nodes, conditional }] of this.fields(type, selectionSet)) {
      const schema = this.valueSchema(field.type, merged(nodes));
      properties[key] = field.description ? { description: field.description, ...schema } : schema;
      if (!conditional) required.push(key);
    }
    return {
      type: 'object',
      ...(type.description && !isAbstractType(type) ? { description: type.description } : {}),
      properties,
      required,
      additionalProperties: false,
    };
  }

  private nonNullSchema(type: GraphQLType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    if (isNonNullType(type)) return this.nonNullSchema(type.ofType, selectionSet);
    if (isListType(type)) return { type: 'array', items: this.valueSchema(type.ofType, selectionSet) };
    if (isScalarType(type)) {
      const schema = SCALARS[type.name];
      if (!schema) throw new Error(`no JSON Schema for the scalar ${type.name}`);
      return schema;
    }
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    if (!selectionSet || isInputObjectType(type)) throw new Error(`${type.name} needs a selection`);
    return this.objectSchema(type, selectionSet);
  }
}

/** The sub-selections of one response key selected in several places, as one selection set. */
function merged(nodes: FieldNode[]): SelectionSetNode {
  return { kind: Kind.SELECTION_SET, selections: nodes.flatMap((n) => n.selectionSet?.selections ?? []) };
}
