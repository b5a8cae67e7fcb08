import { badInput } from '../errors.js';

/** Path and query ids: positive integers written in plain decimal digits. */
export function positiveInt(value: string | null | undefined, name: string): number {
  if (value === null || value === undefined || !/^[0-9]{1,15}$/.test(value)) {
    throw badInput(`${name} must be a positive integer`);
  }
  const number = Number(value);
  if (number < 1 || !Number.isSafeInteger(number)) throw badInput(`${name} must be a positive integer`);
  return number;
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
