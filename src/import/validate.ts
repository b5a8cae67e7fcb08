import type { Tx } from '../shared/db/knex.js';
import { companyChecks, type CompanyChecks } from './company-consistency.js';
import { checkEventPair } from './event-pair.js';
import { eventFiltersOfSubscribers, existingIds, loadRows } from '../repositories/import-tables.js';
import type { ReferenceTarget, Section } from './format.js';
import type { FileFacts } from './parse.js';
import { formatPath, type Problems } from './problems.js';
import { TABLES } from './rows.js';

const NOUN: Record<ReferenceTarget, string> = { companies: 'company', customers: 'customer', sites: 'site', staff: 'employee' };

/** Which of the ids the file does not declare itself the database holds, per target. */
async function storedTargets(trx: Tx, facts: FileFacts): Promise<Record<ReferenceTarget, Set<number>>> {
  const elsewhere: Record<ReferenceTarget, Set<number>> = { companies: new Set(), customers: new Set(), sites: new Set(), staff: new Set() };
  for (const ref of facts.references) if (!facts.ids[ref.target].has(ref.id)) elsewhere[ref.target].add(ref.id);
  for (const target of Object.keys(elsewhere) as ReferenceTarget[]) {
    for (const id of facts.laterReferences[target]) if (!facts.ids[target].has(id)) elsewhere[target].add(id);
  }
  const stored = {} as Record<ReferenceTarget, Set<number>>;
  for (const target of Object.keys(elsewhere) as ReferenceTarget[]) {
    stored[target] = await existingIds(trx, TABLES[target].table, TABLES[target].idColumn, elsewhere[target]);
  }
  return stored;
}

/** Whether a reference resolves: the file declares the id (even in an invalid element) or the database holds it. */
export type ReferenceCheck = (section: Section, index: number, field: string, target: ReferenceTarget, id: number) => void;

function referenceCheck(facts: FileFacts, stored: Record<ReferenceTarget, Set<number>>, problems: Problems): ReferenceCheck {
  return (section, index, field, target, id) => {
    if (facts.ids[target].has(id) || stored[target].has(id)) return;
    problems.add([section, index, field], `${NOUN[target]} ${id} does not exist`);
  };
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

/** The checks of single records that the second reading makes with what was loaded here. */
export interface ElementChecks extends CompanyChecks {
  reference: ReferenceCheck;
}

/**
 * The checks that need the database, made before anything is written: references of the
 * sections checked first, and event filter ownership and uniqueness. What the per-record checks
 * of the second reading need (references of licenses and timesheets, companies) is loaded now
 * and handed back.
 */
export async function validateAgainstDatabase(trx: Tx, facts: FileFacts, problems: Problems): Promise<ElementChecks> {
  const reference = referenceCheck(facts, await storedTargets(trx, facts), problems);
  for (const ref of facts.references) reference(ref.section, ref.index, ref.field, ref.target, ref.id);
  const companies = await companyChecks(trx, facts, problems);
  await checkEventFilters(trx, facts, problems);
  return { reference, ...companies };
}
