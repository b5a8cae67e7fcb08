import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Thrown for bad command-line usage; the CLI prints the message and exits 2. */
export class UsageError extends Error {}

export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function parseIdList(value: string | undefined, name: string): number[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((part) => parseId(part.trim(), name));
}

export function parseId(value: string | undefined, name: string): number {
  if (value === undefined || !/^[0-9]{1,15}$/.test(value) || Number(value) < 1) {
    throw new UsageError(`${name} must be a positive integer${value === undefined ? '' : ` (got "${value}")`}`);
  }
  return Number(value);
}
