import { badInput, notFound } from '../shared/errors.js';
import { normaliseDateTime } from '../import/date-time.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/pagination/keyset.js';

/** Record ids are 32-bit (PostgreSQL integer columns, GraphQL Int). */
const MAX_RECORD_ID = 2_147_483_647;

/** Path and query ids: positive integers written in plain decimal digits (15 of them at most, so always safe integers). */
function positiveInt(value: string | undefined, name: string): number {
  if (value === undefined || !/^[0-9]{1,15}$/.test(value) || Number(value) < 1) throw badInput(`${name} must be a positive integer`);
  return Number(value);
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

/**
 * One query parameter of a route, declared once: the adapter reads and checks it with this
 * declaration, and the OpenAPI document describes it from the same one.
 */
export interface QueryParam {
  name: string;
  /**
   * What kind of value it takes: `id` and `pageSize` are positive integers, `dateTime` an ISO 8601
   * date-time with a zone (passed on in UTC), `text` and `cursor` any string.
   */
  kind: 'id' | 'pageSize' | 'dateTime' | 'text' | 'cursor';
  description: string;
  /** The value used when the parameter is not given (the list's own default page size). */
  default?: number;
  /** The largest value the list accepts (larger is 400). */
  maximum?: number;
}

/** Query values after reading: integers for `id` and `pageSize`, UTC ISO strings for `dateTime`. */
export type QueryValues = ReadonlyMap<string, string | number>;

function checkedValue(param: QueryParam, value: string): string | number {
  switch (param.kind) {
    case 'id':
    case 'pageSize':
      return positiveInt(value, param.name);
    case 'dateTime': {
      const iso = normaliseDateTime(value);
      if (iso === null) throw badInput(`${param.name} must be an ISO 8601 date-time with a time zone`);
      return iso;
    }
    case 'text':
    case 'cursor':
      return value;
  }
}

/**
 * Reads a route's declared query parameters, each checked by its kind once every name is known to
 * be declared and given once (an unknown or repeated parameter is a client error).
 */
export function readParams(query: URLSearchParams, declared: readonly QueryParam[]): QueryValues {
  const allowed = declared.map((p) => p.name);
  const raw = new Map<string, string>();
  for (const [name, value] of query) {
    if (allowed.length === 0) throw badInput(`This endpoint takes no query parameters (got "${name}")`);
    if (!allowed.includes(name)) throw badInput(`Unknown query parameter "${name}"; allowed: ${allowed.join(', ')}`);
    if (raw.has(name)) throw badInput(`Query parameter "${name}" is given more than once`);
    raw.set(name, value);
  }
  const values = new Map<string, string | number>();
  for (const param of declared) {
    const value = raw.get(param.name);
    if (value !== undefined) values.set(param.name, checkedValue(param, value));
  }
  return values;
}

/** The page parameters of every keyset list. */
export const PAGE_PARAMS: readonly QueryParam[] = [
  {
    name: 'pageSize',
    kind: 'pageSize',
    default: DEFAULT_PAGE_SIZE,
    maximum: MAX_PAGE_SIZE,
    description: `Records per page, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}). A cursor carries the page size it was issued with.`,
  },
  {
    name: 'after',
    kind: 'cursor',
    description: 'Opaque signed cursor for the page after it: the `nextPageParameter` of an earlier answer (`after=…`), sent alone or with the very same filters.',
  },
  {
    name: 'before',
    kind: 'cursor',
    description: 'Opaque signed cursor for the page before it: the `prevPageParameter` of an earlier answer (`before=…`), sent alone or with the very same filters.',
  },
];
