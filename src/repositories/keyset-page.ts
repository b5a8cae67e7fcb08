import type { Knex } from 'knex';
import type { KeysetPage } from '../shared/pagination/keyset.js';

/**
 * Adds a keyset page's conditions to a query over `column`: the bound at the page's starting
 * place, the order and one row more than the page (to learn whether another page exists). A
 * list shown newest first ('desc') walks forward towards smaller keys.
 */
export function applyKeysetPage<Q extends Knex.QueryBuilder>(query: Q, column: string, page: KeysetPage, order: 'asc' | 'desc' = 'asc'): Q {
  const ascending = order === 'asc';
  const forward = page.direction === 'forward';
  if (page.from !== null) {
    const { key, side } = page.from;
    const past = ascending ? '>' : '<';
    const ahead = ascending ? '<' : '>';
    // The record at the key itself is on the page only when the place is on its far side.
    if (forward) query.where(column, side === 'after' ? past : `${past}=`, key);
    else query.where(column, side === 'before' ? ahead : `${ahead}=`, key);
  }
  query.orderBy(column, forward === ascending ? 'asc' : 'desc').limit(page.size + 1);
  return query;
}

