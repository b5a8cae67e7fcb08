import { badInput } from '../shared/errors.js';

const NODE_TYPES = new Set(['License', 'Staff', 'Timesheet', 'EventSubscription', 'Subscriber', 'Customer', 'Site']);

/** Global ids are base64("Type:id"); anything else is the caller's mistake, not a server error. */
export function encodeGlobalId(typename: string, id: bigint | number | string): string {
  return Buffer.from(`${typename}:${id}`, 'utf8').toString('base64');
}

export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  const text = Buffer.from(globalId, 'base64').toString('utf8');
  const separator = text.indexOf(':');
  const typename = text.slice(0, separator);
  const id = text.slice(separator + 1);
  if (separator < 1 || !NODE_TYPES.has(typename) || !/^[1-9][0-9]{0,14}$/.test(id) || encodeGlobalId(typename, id) !== globalId) {
    throw badInput(`Invalid global ID: ${globalId.slice(0, 64)}`);
  }
  return { typename, id };
}
