import { isObjectType, type GraphQLSchema } from 'graphql';
import { badInput } from '../shared/errors.js';

/** The types a global id may name: those implementing Node, read from the schema once it is built (schema.ts). */
const nodeTypes = new Set<string>();

export function learnNodeTypes(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node')) nodeTypes.add(type.name);
  }
}

/** Global ids are base64("Type:id"); anything else is the caller's mistake, not a server error. */
export function encodeGlobalId(typename: string, id: bigint | number | string): string {
  return Buffer.from(`${typename}:${id}`, 'utf8').toString('base64');
}

export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const text = Buffer.from(globalId, 'base64').toString('utf8');
  const separator = text.indexOf(':');
  const typename = text.slice(0, separator);
  const id = text.slice(separator + 1);
  if (separator < 1 || !nodeTypes.has(typename) || !/^[1-9][0-9]{0,14}$/.test(id) || encodeGlobalId(typename, id) !== globalId) {
    throw badInput(`Invalid global ID: ${globalId.slice(0, 64)}`);
  }
  return { typename, id };
}
