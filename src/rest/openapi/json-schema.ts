/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/** The same schema, also allowing null. */
export function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  // A $ref or a schema with no type: wrapped, since keywords beside $ref would narrow it instead.
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}
