import { badInput, notFound } from '../shared/errors.js';

/** Record ids are 32-bit (PostgreSQL integer columns, GraphQL Int). */
const MAX_RECORD_ID = 2_147_483_647;

/** Path and query ids: positive integers written in plain decimal digits. */
export function positiveInt(value: string | null | undefined, name: string): number {
  if (value === null || value === undefined || !/^[0-9]{1,15}$/.test(value)) {
    throw badInput(`${name} must be a positive integer`);
  }
  const number = Number(value);
  if (number < 1 || !Number.isSafeInteger(number)) throw badInput(`${name} must be a positive integer`);
  return number;
}

/**
 * A record id from the path. A well-formed positive integer beyond the id space names a
 * record that cannot exist: that is "not found", the same answer as any other missing id.
 */
export function recordId(value: string | undefined, name: string): number {
  if (value !== undefined && /^[0-9]{16,}$/.test(value) && /[1-9]/.test(value)) throw notFound(`No record has ${name} ${value}`);
  const id = positiveInt(value, name);
  if (id > MAX_RECORD_ID) throw notFound(`No record has ${name} ${value}`);
  return id;
}

/** Reads the allowed query parameters; an unknown or repeated parameter is a client error. */
export function readQuery(query: URLSearchParams, allowed: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of query) {
    if (!allowed.includes(name)) {
      throw badInput(
        allowed.length > 0
          ? `Unknown query parameter "${name}"; allowed: ${allowed.join(', ')}`
          : `This endpoint takes no query parameters (got "${name}")`,
      );
    }
    if (values.has(name)) throw badInput(`Query parameter "${name}" is given more than once`);
    values.set(name, value);
  }
  return values;
}
