import { badCursor, badInput } from '../errors.js';
import type { CursorCodec } from './cursor-codec.js';

export const MAX_PAGE_SIZE = 100;
/** The page size of every list when the caller gives none. */
export const DEFAULT_PAGE_SIZE = 20;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** One keyset page request, as the repositories take it. */
export interface KeysetPage {
  /** Forward pages read the records past `from`, backward pages the records ahead of it. */
  direction: 'forward' | 'backward';
  /** A place between two records, just after or just before the one with `key`; null: the start (forward) or end (backward). */
  from: { key: number; side: 'after' | 'before' } | null;
  /** Rows to return; repositories fetch one more to learn whether another page exists. */
  size: number;
  filter: string | null;
}

export interface ListIdentity {
  kind: string;
  owner: number;
  /** The filter given with this request (undefined: not given, so a cursor's filter applies). */
  filter?: string | null | undefined;
  /** The page size when the caller gives none: DEFAULT_PAGE_SIZE unless the list sets its own. */
  defaultSize?: number;
}

function checkSize(name: string, value: number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw badInput(`Page size (${name}; pageSize in REST) must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return value;
}

/** Reads Relay connection arguments into a keyset page; a cursor carries its filter and page size, so it pages on alone. */
export function readConnectionArgs(args: ConnectionArgs, list: ListIdentity, codec: CursorCodec): KeysetPage {
  const first = checkSize('first', args.first);
  const last = checkSize('last', args.last);
  if (first !== undefined && last !== undefined) throw badInput('Give either first or last, not both');
  if (args.after === '' || args.before === '') throw badCursor('The page cursor must not be empty');
  if (args.after && args.before) throw badInput('Give either after or before, not both');
  const cursorText = args.after ?? args.before ?? null;
  const backward = Boolean(args.before) || (last !== undefined && !args.after);
  const direction = backward ? 'backward' : 'forward';
  if (!cursorText) {
    return { direction, from: null, size: first ?? last ?? list.defaultSize ?? DEFAULT_PAGE_SIZE, filter: list.filter ?? null };
  }
  const cursor = codec.decode(cursorText, list.kind, list.owner);
  if (list.filter !== undefined && list.filter !== cursor.filter) {
    throw badInput('The page cursor was issued for a different filter');
  }
  return {
    direction,
    from: { key: cursor.key, side: cursor.side ?? (args.after ? 'after' : 'before') },
    size: first ?? last ?? cursor.size,
    filter: cursor.filter,
  };
}

/**
 * A list's filters as a cursor carries them: the given values in the order of `keys`, so the same
 * filters always sign the same; none set counts as not passed, so a cursor pages on with its own.
 */
export function filterText<K extends string>(
  filter: Partial<Record<K, string | number | null | undefined>> | null | undefined,
  keys: readonly K[],
): string | undefined {
  const given = keys.flatMap((key) => (filter?.[key] != null ? [[key, filter[key]]] : []));
  return given.length === 0 ? undefined : JSON.stringify(Object.fromEntries(given));
}

/** The filters a cursor or request carries, as filterText wrote them. */
export function parseFilterText<T>(text: string | null): Partial<T> {
  return text === null ? {} : (JSON.parse(text) as Partial<T>);
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

export interface KeysetList<T> {
  args: ConnectionArgs;
  list: ListIdentity;
  codec: CursorCodec;
  fetch: (page: KeysetPage) => Promise<T[]>;
  keyOf: (row: NoInfer<T>) => number;
  /** The page these arguments ask for, when it was already read (with the same arguments and list). */
  read?: { page: KeysetPage; rows: NoInfer<T>[] } | null;
}

/**
 * One page of any keyset-paged list as a Relay connection, from rows fetched in the page's
 * direction (size + 1 at most; `fetch` is the list's repository query, applyKeysetPage). A page
 * reached through a cursor has a page on the side it came from. An empty one (its records deleted,
 * or no longer matching the filter) has no edge to take a cursor from: both its cursors are the
 * place it stands, which still leads to the records beyond. It asks once more (for one row) whether
 * records remain there, so an emptied list does not offer a way back to nothing.
 */
export async function keysetConnection<T>(options: KeysetList<T>) {
  const { args, list, codec, keyOf, fetch, read } = options;
  const page = read ? read.page : readConnectionArgs(args, list, codec);
  const rows = read ? read.rows : await fetch(page);
  const more = rows.length > page.size;
  const pageRows = more ? rows.slice(0, page.size) : rows;
  if (page.direction === 'backward') pageRows.reverse();
  const payload = { kind: list.kind, owner: list.owner, filter: page.filter, size: page.size };
  const edges = pageRows.map((node) => new Edge(node, (n) => codec.encode({ ...payload, key: keyOf(n) })));
  const forward = page.direction === 'forward';
  let cameFrom = page.from !== null;
  if (edges.length === 0 && cameFrom) {
    // A page of no rows still fetches one, which is all the question needs.
    cameFrom = (await fetch({ ...page, direction: forward ? 'backward' : 'forward', size: 0 })).length > 0;
  }
  const place = edges.length === 0 && page.from !== null ? codec.encode({ ...payload, ...page.from }) : null;
  return {
    edges,
    pageInfo: {
      hasNextPage: forward ? more : cameFrom,
      hasPreviousPage: forward ? cameFrom : more,
      startCursor: edges[0]?.cursor ?? place,
      endCursor: edges[edges.length - 1]?.cursor ?? place,
    },
  };
}

/** A Relay connection: its edges and pageInfo. */
export type Connection<T> = Awaited<ReturnType<typeof keysetConnection<T>>>;
