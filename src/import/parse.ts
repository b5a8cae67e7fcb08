import { isSection, kindOf, REFERENCES, SECTION_NAMES, SECTIONS, type ReferenceTarget, type Section } from './format.js';
import { formatPath, Problems, type PathSegment } from './problems.js';
import type { ImportSource } from './source.js';
import { IdIndex } from './id-index.js';
import { TABLES } from './rows.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/** An event filter as far as it could be read; null where the value has the wrong type. */
export interface EventFilterFacts {
  path: PathSegment[];
  subscriberId: number | null;
  id: number | null;
  event: string | null;
  eventType: string | null;
}

/** The sections other records hang from; each one's parent is its first reference. */
export type ParentKind = 'staff' | 'sites' | 'customers';
const isParent = (section: Section): section is ParentKind => section === 'staff' || section === 'sites' || section === 'customers';

/**
 * Sections fully checked in the first reading: the parents others hang from, and subscribers (their
 * event filters are checked as a whole). Licenses and timesheets are checked in the second, one
 * element at a time, so a large file never has its records held.
 */
export const CHECKED_FIRST: ReadonlySet<Section> = new Set(['companies', 'customers', 'sites', 'staff', 'subscribers']);

/**
 * What the first reading learns of every element, valid or not (so a reference to an invalid one
 * does not also read as "does not exist"): per record an id and little else.
 */
export class FileFacts {
  /** Per section, id → index of the first element with it. */
  readonly ids = Object.fromEntries(SECTION_NAMES.map((s) => [s, new IdIndex()])) as { [S in Section]: IdIndex };
  /** References made by the sections checked first. */
  readonly references: { section: Section; index: number; field: string; target: ReferenceTarget; id: number }[] = [];
  /** Ids that licenses and timesheets refer to, per target (checked element by element later). */
  readonly laterReferences: Record<ReferenceTarget, Set<number>> = { companies: new Set(), customers: new Set(), sites: new Set(), staff: new Set() };
  /** The parent id a valid staff, site or customer element gives (first element per id only). */
  readonly parents: Record<ParentKind, Map<number, number>> = { staff: new Map(), sites: new Map(), customers: new Map() };
  readonly eventFilters: EventFilterFacts[] = [];
  /** Event filter id → where it first appears. */
  readonly eventFilterIds = new Map<number, PathSegment[]>();
  /** Elements in the file, valid or not. */
  elementCount = 0;
  /** The sections with at least one element, valid or not: the second reading reads only these. */
  readonly sectionsWithElements = new Set<Section>();
}

export function idLike(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** The record an element is by its section's schema; null when invalid, its problems told to `problems` when given. */
export function validRecord(section: Section, index: number, element: Record<string, unknown>, problems?: Problems): Record<string, unknown> | null {
  const result = SECTIONS[section].safeParse(element);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = [section, index, ...issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)))];
    if (issue.code !== 'unrecognized_keys') problems?.add(path, issue.message);
    else for (const key of issue.keys) problems?.add([...path, key], 'unknown field');
  }
  return null;
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

function collectEventFilters(element: Record<string, unknown>, index: number, facts: FileFacts, problems: Problems): void {
  if (!Array.isArray(element.eventFilters)) return;
  element.eventFilters.forEach((filter: unknown, filterIndex) => {
    if (!isPlainObject(filter)) return;
    const path: PathSegment[] = ['subscribers', index, 'eventFilters', filterIndex];
    let id = idLike(filter.id) ? filter.id : null;
    const first = id === null ? undefined : facts.eventFilterIds.get(id);
    if (first) {
      problems.add([...path, 'id'], `duplicate event filter id ${id} (first at ${formatPath(first)})`);
      id = null;
    } else if (id !== null) facts.eventFilterIds.set(id, path);
    const subscriberId = idLike(element.id) ? element.id : null;
    facts.eventFilters.push({ path, subscriberId, id, event: stringOrNull(filter.event), eventType: stringOrNull(filter.eventType) });
  });
}

function collectElement(section: Section, index: number, element: unknown, facts: FileFacts, problems: Problems): void {
  facts.elementCount++;
  facts.sectionsWithElements.add(section);
  const early = CHECKED_FIRST.has(section);
  if (!isPlainObject(element)) {
    if (early) problems.add([section, index], `expected an object, got ${kindOf(element)}`);
    return;
  }
  const { idField } = TABLES[section];
  const id = element[idField];
  let first = false;
  if (idLike(id)) {
    const firstIndex = facts.ids[section].get(id);
    first = firstIndex === undefined;
    if (first) facts.ids[section].set(id, index);
    else problems.add([section, index, idField], `duplicate id ${id} (first at ${section}[${firstIndex}])`);
  }
  for (const { field, target } of REFERENCES[section]) {
    const ref = element[field];
    if (!idLike(ref)) continue;
    if (early) facts.references.push({ section, index, field, target, id: ref });
    else facts.laterReferences[target].add(ref);
  }
  if (section === 'subscribers') collectEventFilters(element, index, facts, problems);
  if (!early) return;
  const record = validRecord(section, index, element, problems);
  // Only the first element with an id counts; a duplicate is reported above.
  if (record && first && isParent(section)) facts.parents[section].set(id as number, record[REFERENCES[section][0]!.field] as number);
}

/**
 * The first reading: the file's shape, every id and reference, and the full checks of the
 * sections in CHECKED_FIRST (licenses and timesheets are only looked at for their ids here).
 * Throws JsonSyntaxError for a file that is not JSON.
 */
export async function scanImport(source: ImportSource) {
  const problems = new Problems(source.lineOf?.bind(source));
  const facts = new FileFacts();
  const keys = new Set<string>();
  await source.scan({
    notObject: (value) => problems.add([], `expected a JSON object, got ${kindOf(value)}`),
    key(key) {
      if (!isSection(key)) problems.add([key], `unknown top-level key (expected ${SECTION_NAMES.join(', ')})`);
      else if (keys.has(key)) problems.add([key], 'duplicate top-level key');
      keys.add(key);
    },
    notArray: (section, value) => problems.add([section], `expected an array, got ${kindOf(value)}`),
    element: (section, index, value) => collectElement(section, index, value, facts, problems),
  });
  return { source, facts, problems };
}

/** The first reading of a source, done before the database is opened (a syntax error stops there). */
export type ScannedImport = Awaited<ReturnType<typeof scanImport>>;
