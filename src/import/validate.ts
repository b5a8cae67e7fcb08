import type { Tx } from '../shared/db/knex.js';
import { checkCompanyConsistency } from './company-consistency.js';
import { checkEventPair } from './event-pair.js';
import { eventFiltersOfSubscribers, existingIds, loadRows } from '../repositories/import-tables.js';
import type { ReferenceTarget } from './format.js';
import type { FileFacts, ParsedInput } from './parse.js';
import { formatPath, type Problems } from './problems.js';
import { TABLES } from './rows.js';

const NOUN: Record<ReferenceTarget, string> = { companies: 'company', customers: 'customer', sites: 'site', staff: 'employee' };

/** A reference resolves when the file declares the id (even in an invalid element) or the database holds it. */
async function checkReferences(trx: Tx, facts: FileFacts, problems: Problems): Promise<void> {
  const elsewhere = new Map<ReferenceTarget, Set<number>>();
  for (const ref of facts.references) {
    if (facts.ids[ref.target].has(ref.id)) continue;
    const set = elsewhere.get(ref.target) ?? new Set<number>();
    set.add(ref.id);
    elsewhere.set(ref.target, set);
  }
  const stored = new Map<ReferenceTarget, Set<number>>();
  for (const [target, ids] of elsewhere) {
    stored.set(target, await existingIds(trx, TABLES[target].table, TABLES[target].idColumn, ids));
  }
  for (const ref of facts.references) {
    if (facts.ids[ref.target].has(ref.id) || stored.get(ref.target)?.has(ref.id)) continue;
    problems.add([ref.section, ref.index, ref.field], `${NOUN[ref.target]} ${ref.id} does not exist`);
  }
}

const pairKey = (subscriberId: number, event: string, eventType: string) => JSON.stringify([subscriberId, event, eventType]);

async function storedFiltersOf(trx: Tx, subscriberIds: Set<number>) {
  const byPair = new Map<string, number>();
  for (const filter of await eventFiltersOfSubscribers(trx, subscriberIds)) {
    byPair.set(pairKey(filter.subscriberId, filter.event, filter.eventType), filter.id);
  }
  return byPair;
}

/**
 * Event filter ids are global, so one stored under another subscriber cannot be taken over;
 * and each subscriber's pairs must stay unique once the file's filters replace stored ones.
 */
async function checkEventFilters(trx: Tx, facts: FileFacts, problems: Problems): Promise<void> {
  const owners = await loadRows(trx, 'event_filters', 'id', facts.eventFilterIds.keys());
  const subscriberIds = new Set(facts.eventFilters.flatMap((f) => (f.subscriberId === null ? [] : [f.subscriberId])));
  const storedPairs = await storedFiltersOf(trx, subscriberIds);
  const seen = new Map<string, (typeof facts.eventFilters)[number]>();
  for (const filter of facts.eventFilters) {
    const { path, id, subscriberId, event, eventType } = filter;
    if (event !== null && eventType !== null) {
      const reason = checkEventPair(event, eventType);
      if (reason !== null) problems.add(path, reason);
    }
    const owner = id === null ? undefined : owners.get(id)?.subscriber_id;
    if (owner !== undefined && subscriberId !== null && Number(owner) !== subscriberId) {
      problems.add([...path, 'id'], `event filter ${id} belongs to subscriber ${Number(owner)}`);
    }
    if (subscriberId === null || event === null || eventType === null) continue;
    const key = pairKey(subscriberId, event, eventType);
    const earlier = seen.get(key);
    if (earlier) {
      problems.add(path, `duplicate event/eventType pair for subscriber ${subscriberId} (same as ${formatPath(earlier.path)})`);
      continue;
    }
    seen.set(key, filter);
    const clash = storedPairs.get(key);
    // A stored filter named in the file gets the file's pair, so only the others can clash.
    if (clash !== undefined && clash !== id && !facts.eventFilterIds.has(clash)) {
      problems.add(path, `subscriber ${subscriberId} already has this event/eventType pair as event filter ${clash}`);
    }
  }
}

/**
 * The checks that need the database: references, timesheets staying within one company, and
 * event filter ownership and uniqueness.
 */
export async function validateAgainstDatabase(trx: Tx, parsed: ParsedInput, problems: Problems): Promise<void> {
  const { file, facts } = parsed;
  await checkReferences(trx, facts, problems);
  await checkCompanyConsistency(trx, file, facts, problems);
  await checkEventFilters(trx, facts, problems);
}
