import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { keysetConnection, readConnectionArgs, type Connection, type KeysetList, type KeysetPage } from '../../shared/pagination/keyset.js';
import type { GraphQLContext } from '../context.js';

/** `fetch` reads any page of one parent's list. */
interface ChildList<T, W> extends Omit<KeysetList<T>, 'codec' | 'read'> {
  /** What the first page is read with (its size, its filter); parents whose first pages read alike share a batch. */
  readWith: (page: KeysetPage) => W;
}

/**
 * A list under each record of a page (a customer's sites, a site's timesheets) as a connection:
 * the first pages of all the parents of a request are read in one batch by `readFirst` (grouped
 * like the parents' ids), one batch per request and `readWith`; any other page alone.
 */
export function childConnection<T, W>(
  readFirst: (context: GraphQLContext, parentIds: readonly number[], readWith: W) => Promise<T[][]>,
): (context: GraphQLContext, parentId: number, options: ChildList<T, W>) => Promise<Connection<T>> {
  const loaders = createContextCache(() => new Map<string, DataLoader<number, T[]>>());
  return async (context, parentId, options) => {
    const codec = context.services.cursors;
    const page = readConnectionArgs(options.args, options.list, codec);
    if (page.from !== null || page.direction !== 'forward') return keysetConnection({ ...options, codec });
    const readWith = options.readWith(page);
    const byReadWith = loaders(context);
    const key = JSON.stringify(readWith);
    let loader = byReadWith.get(key);
    if (!loader) byReadWith.set(key, (loader = new DataLoader((ids: readonly number[]) => readFirst(context, ids, readWith))));
    return keysetConnection({ ...options, codec, read: { page, rows: [...(await loader.load(parentId))] } });
  };
}
