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

/**
 * What decides the SQL of a keyset page, apart from the key it starts from: the structure of a
 * shaped query (src/shared/db/query-shape.ts), which binds the key as a value.
 */
export function keysetStructure(page: KeysetPage): string {
  return `${page.direction}:${page.from?.side ?? ''}:${page.size}`;
}

/** The page keysetStructure describes, starting from `fromKey` (null when it starts at an end). */
export function keysetPageOf(structure: string, fromKey: number | null): KeysetPage {
  const [direction, side, size] = structure.split(':') as ['forward' | 'backward', '' | 'after' | 'before', string];
  return {
    direction,
    from: side === '' || fromKey === null ? null : { key: fromKey, side },
    size: Number(size),
    filter: null,
  };
}
