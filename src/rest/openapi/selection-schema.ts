import {
  getNamedType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLNullableType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLType,
  type SelectionNode,
} from 'graphql';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

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

/** One response key of a selection: its field definition and the sub-selections of every place that selects it. */
interface SelectedField {
  field: GraphQLField<unknown, unknown>;
  selections: SelectionNode[];
}

/**
 * Turns the selections of an operation into the JSON Schema of what it returns, walking the
 * GraphQL schema's own types: field names are response keys (aliases included), nullability and
 * lists follow the field types, descriptions are the fields' descriptions. A REST record has one
 * shape, so a fragment must be on the type it is selected on.
 */
export class SelectionSchemas {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();

  constructor(document: DocumentNode) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
  }

  /** The fields the selections select on `type`, by response key, fragments included. */
  fields(type: GraphQLNamedType, selections: readonly SelectionNode[], selected = new Map<string, SelectedField>()): Map<string, SelectedField> {
    if (!isObjectType(type) && !isInterfaceType(type)) throw new Error(`cannot select fields on ${type.name}`);
    for (const selection of selections) {
      if (selection.kind !== Kind.FIELD) {
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? this.fragments.get(selection.name.value) : selection;
        const on = fragment?.typeCondition?.name.value ?? type.name;
        if (!fragment || on !== type.name) throw new Error(`a fragment on ${on} is selected on ${type.name}`);
        this.fields(type, fragment.selectionSet.selections, selected);
      } else if (selection.name.value !== '__typename') {
        const field = type.getFields()[selection.name.value];
        if (!field) throw new Error(`${type.name} has no field ${selection.name.value}`);
        const key = selection.alias?.value ?? selection.name.value;
        const entry = selected.get(key) ?? { field, selections: [] };
        entry.selections.push(...(selection.selectionSet?.selections ?? []));
        selected.set(key, entry);
      }
    }
    return selected;
  }

  /** The selection one response key path leads to: its field type and merged sub-selections. */
  follow(type: GraphQLOutputType, selections: readonly SelectionNode[], path: readonly string[]): { type: GraphQLOutputType; selections: readonly SelectionNode[] } {
    for (const key of path) {
      const entry = this.fields(getNamedType(type), selections).get(key);
      if (!entry) throw new Error(`the selection on ${getNamedType(type).name} has no ${key}`);
      type = entry.field.type;
      selections = entry.selections;
    }
    return { type, selections };
  }

  /** The JSON Schema of a value of `type` selected with `selections` (none for an input type). */
  valueSchema(type: GraphQLType, selections?: readonly SelectionNode[]): JsonSchema {
    if (isNonNullType(type)) return this.nonNullSchema(type.ofType, selections);
    const schema = this.nonNullSchema(type, selections);
    // Also allowing null (the JSON scalar's `{}` allows it already).
    return typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : schema;
  }

  /** The JSON Schema of an object of `type`: every selected key present, no other key. */
  objectSchema(type: GraphQLObjectType | GraphQLInterfaceType, selections: readonly SelectionNode[]): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, { field, selections: sub }] of this.fields(type, selections)) {
      const schema = this.valueSchema(field.type, sub);
      properties[key] = field.description ? { description: field.description, ...schema } : schema;
    }
    return {
      type: 'object',
      ...(isObjectType(type) && type.description ? { description: type.description } : {}),
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    };
  }

  private nonNullSchema(type: GraphQLNullableType, selections: readonly SelectionNode[] | undefined): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.valueSchema(type.ofType, selections) };
    if (isScalarType(type)) {
      const schema = SCALARS[type.name];
      if (!schema) throw new Error(`no JSON Schema for the scalar ${type.name}`);
      return schema;
    }
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    if (!selections || (!isObjectType(type) && !isInterfaceType(type))) throw new Error(`${type.name} needs a selection`);
    return this.objectSchema(type, selections);
  }
}
