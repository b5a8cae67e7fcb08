import type { PageParameters } from './envelope.js';

/**
 * Where an operation's result holds a route's data: the path of response keys down to it, and
 * what is there. `record`: one object. `list`: a list of objects. `edges`: a connection whose
 * nodes are the data. `page`: the same, with the page parameters its pageInfo gives.
 */
export interface DataShape {
  at: readonly string[];
  shape: 'record' | 'list' | 'edges' | 'page';
}

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

interface Connection {
  edges: { node: unknown }[];
  pageInfo?: PageInfo;
}

/** A GraphQL page cursor becomes a query-string fragment the caller can append verbatim. */
function pageParameters(pageInfo: PageInfo): PageParameters {
  return {
    nextPageParameter: pageInfo.hasNextPage && pageInfo.endCursor ? `after=${pageInfo.endCursor}` : undefined,
    prevPageParameter: pageInfo.hasPreviousPage && pageInfo.startCursor ? `before=${pageInfo.startCursor}` : undefined,
  };
}

/**
 * The envelope's data (and page parameters) from an operation's result. A missing object on the
 * way (a staff member the key cannot see, say) is no records: null for one record, [] for a list.
 */
export function shapeResult(result: unknown, { at, shape }: DataShape): { data: unknown; page?: PageParameters } {
  let value: unknown = result;
  for (const key of at) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (shape === 'record') return { data: value ?? null };
  if (value === null || value === undefined) return { data: [] };
  if (shape === 'list') return { data: value };
  const connection = value as Connection;
  const data = connection.edges.map((edge) => edge.node);
  return shape === 'page' && connection.pageInfo ? { data, page: pageParameters(connection.pageInfo) } : { data };
}
