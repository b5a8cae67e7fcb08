import type { Knex } from 'knex';
import { badCursor, badInput } from '../errors.js';
import type { CursorCodec } from './cursor-codec.js';

export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** One keyset page request, as the repositories take it. */
export interface KeysetPage {
  /** Forward pages read keys greater than `afterKey`; backward pages keys less than `beforeKey`. */
  direction: 'forward' | 'backward';
  afterKey: number | null;
  beforeKey: number | null;
  /** Rows to return; repositories fetch one more to learn whether another page exists. */
  size: number;
  filter: string | null;
}

export interface ListIdentity {
  kind: string;
  owner: number;
  /** The filter given with this request (undefined: not given, so a cursor's filter applies). */
  filter: string | null | undefined;
  defaultSize: number;
}

function checkSize(name: string, value: number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw badInput(`Page size (${name}; pageSize in REST) must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return value;
}

/**
 * Reads Relay connection arguments into a keyset page. A cursor carries the filter and page
 * size it was issued with, so "the next page" needs nothing but the cursor.
 */
export function readConnectionArgs(args: ConnectionArgs, list: ListIdentity, codec: CursorCodec): KeysetPage {
  const first = checkSize('first', args.first);
  const last = checkSize('last', args.last);
  if (first !== undefined && last !== undefined) throw badInput('Give either first or last, not both');
  if (args.after === '' || args.before === '') throw badCursor('The page cursor must not be empty');
  if (args.after && args.before) throw badInput('Give either after or before, not both');
  const cursorText = args.after ?? args.before ?? null;
  const backward = Boolean(args.before) || (last !== undefined && !args.after);
  if (!cursorText) {
    return {
      direction: backward ? 'backward' : 'forward',
      afterKey: null,
      beforeKey: null,
      size: first ?? last ?? list.defaultSize,
      filter: list.filter ?? null,
    };
  }
  const cursor = codec.decode(cursorText, list.kind, list.owner);
  if (list.filter !== undefined && list.filter !== cursor.filter) {
    throw badInput('The page cursor was issued for a different filter');
  }
  return {
    direction: backward ? 'backward' : 'forward',
    afterKey: backward ? null : cursor.key,
    beforeKey: backward ? cursor.key : null,
    size: first ?? last ?? cursor.size,
    filter: cursor.filter,
  };
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** An edge signs its cursor only when a caller selects it (REST pages need just two of them). */
class Edge<T> {
  private signed: string | undefined;

  constructor(
    readonly node: T,
    private readonly encode: (node: T) => string,
  ) {}

  get cursor(): string {
    this.signed ??= this.encode(this.node);
    return this.signed;
  }
}

/**
 * Builds the connection from rows fetched in the page's direction (size + 1 of them at most).
 * A page reached through a cursor has a page on the side it came from.
 */
export function buildConnection<T>(
  rows: T[],
  page: KeysetPage,
  list: Pick<ListIdentity, 'kind' | 'owner'>,
  keyOf: (row: T) => number,
  codec: CursorCodec,
): Connection<T> {
  const more = rows.length > page.size;
  const pageRows = more ? rows.slice(0, page.size) : rows;
  if (page.direction === 'backward') pageRows.reverse();
  const encode = (node: T) =>
    codec.encode({ kind: list.kind, owner: list.owner, filter: page.filter, size: page.size, key: keyOf(node) });
  const edges = pageRows.map((node) => new Edge(node, encode));
  const forward = page.direction === 'forward';
  return {
    edges,
    pageInfo: {
      hasNextPage: forward ? more : page.beforeKey !== null,
      hasPreviousPage: forward ? page.afterKey !== null : more,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/**
 * Adds a keyset page's conditions to a query over `column`: the key bounds, the order and
 * one row more than the page (to learn whether another page exists). A list shown newest
 * first ('desc') walks forward towards smaller keys.
 */
export function applyKeysetPage<Q extends Knex.QueryBuilder>(query: Q, column: string, page: KeysetPage, order: 'asc' | 'desc' = 'asc'): Q {
  const ascending = order === 'asc';
  if (page.afterKey !== null) query.where(column, ascending ? '>' : '<', page.afterKey);
  if (page.beforeKey !== null) query.where(column, ascending ? '<' : '>', page.beforeKey);
  const forward = page.direction === 'forward';
  query.orderBy(column, forward === ascending ? 'asc' : 'desc').limit(page.size + 1);
  return query;
}
