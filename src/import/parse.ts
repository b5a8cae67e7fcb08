import type { z } from 'zod';
import { kindOf, REFERENCES, SECTION_NAMES, SECTIONS, type ReferenceTarget, type Section } from './format.js';
import { formatPath, type PathSegment, type Problems } from './problems.js';
import type { ImportSource } from './source.js';
import { IdIndex } from './id-index.js';
import { isPlainObject } from '../shared/is-plain-object.js';

export interface Reference {
  section: Section;
  index: number;
  field: string;
  target: ReferenceTarget;
  id: number;
}

/** An event filter as far as it could be read; null where the value has the wrong type. */
export interface EventFilterFacts {
  path: PathSegment[];
  subscriberId: number | null;
  id: number | null;
  event: string | null;
  eventType: string | null;
}

export type ParentKind = 'staff' | 'sites' | 'customers';

/**
 * Sections whose elements are fully checked in the first reading: the parents other records
 * hang from, and subscribers (their event filters are checked against the database as a whole).
 * They are small next to licenses and timesheets, which are checked in the second reading,
 * one element at a time, so a large file never has its records held.
 */
export const CHECKED_FIRST: ReadonlySet<Section> = new Set(['companies', 'customers', 'sites', 'staff', 'subscribers']);

/**
 * What the first reading learns of the file, valid elements or not, so that the database
 * checks report on every element and a reference to an invalid element does not also read as
 * "does not exist". Per record it keeps an id and little else.
 */
export interface FileFacts {
  /** Per section, id → index of the first element with it. */
  ids: { [S in Section]: IdIndex };
  /** References made by the sections checked first. */
  references: Reference[];
  /** Ids that licenses and timesheets refer to, per target (checked element by element later). */
  laterReferences: Record<ReferenceTarget, Set<number>>;
  /** The parent id a valid staff, site or customer element gives (first element per id only). */
  parents: Record<ParentKind, Map<number, number>>;
  /** The employees and sites the file's timesheets name. */
  timesheetSides: { employeeIds: Set<number>; siteIds: Set<number> };
  eventFilters: EventFilterFacts[];
  /** Event filter id → where it first appears. */
  eventFilterIds: Map<number, PathSegment[]>;
  /** Elements in the file, valid or not. */
  elementCount: number;
  /** The sections with at least one element, valid or not: the second reading reads only these. */
  sectionsWithElements: Set<Section>;
}

export function idLike(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

export function reportIssues(issues: readonly z.core.$ZodIssue[], at: PathSegment[], problems: Problems): void {
  for (const issue of issues) {
    const path = [...at, ...issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.add([...path, key], 'unknown field');
    } else {
      problems.add(path, issue.message);
    }
  }
}

function collectEventFilters(element: Record<string, unknown>, index: number, facts: FileFacts, problems: Problems): void {
  if (!Array.isArray(element.eventFilters)) return;
  const seen = facts.eventFilterIds;
  element.eventFilters.forEach((filter: unknown, filterIndex) => {
    if (!isPlainObject(filter)) return;
    const path: PathSegment[] = ['subscribers', index, 'eventFilters', filterIndex];
    let id = idLike(filter.id) ? filter.id : null;
    if (id !== null) {
      const first = seen.get(id);
      if (first) {
        problems.add([...path, 'id'], `duplicate event filter id ${id} (first at ${formatPath(first)})`);
        id = null;
      } else {
        seen.set(id, path);
      }
    }
    facts.eventFilters.push({
      path,
      subscriberId: idLike(element.id) ? element.id : null,
      id,
      event: stringOrNull(filter.event),
      eventType: stringOrNull(filter.eventType),
    });
  });
}

const REFERENCES_OF = Object.fromEntries(SECTION_NAMES.map((s) => [s, REFERENCES.filter((ref) => ref.section === s)])) as Record<
  Section,
  (typeof REFERENCES)[number][]
>;

const PARENT_FIELD: Partial<Record<Section, { kind: ParentKind; field: string }>> = {
  staff: { kind: 'staff', field: 'companyId' },
  sites: { kind: 'sites', field: 'customerId' },
  customers: { kind: 'customers', field: 'companyId' },
};

function newFacts(): FileFacts {
  return {
    ids: Object.fromEntries(SECTION_NAMES.map((s) => [s, new IdIndex()])) as FileFacts['ids'],
    references: [],
    laterReferences: { companies: new Set(), customers: new Set(), sites: new Set(), staff: new Set() },
    parents: { staff: new Map(), sites: new Map(), customers: new Map() },
    timesheetSides: { employeeIds: new Set(), siteIds: new Set() },
    eventFilters: [],
    eventFilterIds: new Map(),
    elementCount: 0,
    sectionsWithElements: new Set(),
  };
}

function collectElement(section: Section, index: number, element: unknown, facts: FileFacts, problems: Problems): void {
  facts.elementCount++;
  facts.sectionsWithElements.add(section);
  if (!isPlainObject(element)) {
    if (CHECKED_FIRST.has(section)) problems.add([section, index], `expected an object, got ${kindOf(element)}`);
    return;
  }
  const { idField } = SECTIONS[section];
  const seen = facts.ids[section];
  const id = element[idField];
  let first = false;
  if (idLike(id)) {
    const firstIndex = seen.get(id);
    if (firstIndex === undefined) {
      seen.set(id, index);
      first = true;
    } else problems.add([section, index, idField], `duplicate id ${id} (first at ${section}[${firstIndex}])`);
  }
  const early = CHECKED_FIRST.has(section);
  for (const { field, target } of REFERENCES_OF[section]) {
    const ref = element[field];
    if (!idLike(ref)) continue;
    if (early) facts.references.push({ section, index, field, target, id: ref });
    else facts.laterReferences[target].add(ref);
  }
  if (section === 'timesheets') {
    if (idLike(element.employeeId)) facts.timesheetSides.employeeIds.add(element.employeeId);
    if (idLike(element.siteId)) facts.timesheetSides.siteIds.add(element.siteId);
  }
  if (section === 'subscribers') collectEventFilters(element, index, facts, problems);
  if (!early) return;
  const { schema } = SECTIONS[section];
  const result = schema.safeParse(element);
  if (!result.success) {
    reportIssues(result.error.issues, [section, index], problems);
    return;
  }
  const parent = PARENT_FIELD[section];
  // Only the first element with an id counts; a duplicate is reported above.
  if (parent && first) facts.parents[parent.kind].set(id as number, (result.data as unknown as Record<string, number>)[parent.field]!);
}

/**
 * The first reading: the file's shape, every id and reference, and the full checks of the
 * sections in CHECKED_FIRST. Licenses and timesheets are only looked at for their ids here.
 */
export async function collectFacts(source: ImportSource, problems: Problems): Promise<FileFacts> {
  const facts = newFacts();
  const keys = new Set<string>();
  await source.scan({
    notObject(value) {
      problems.add([], `expected a JSON object, got ${kindOf(value)}`);
    },
    key(key) {
      if (!Object.hasOwn(SECTIONS, key)) problems.add([key], `unknown top-level key (expected ${SECTION_NAMES.join(', ')})`);
      else if (keys.has(key)) problems.add([key], 'duplicate top-level key');
      keys.add(key);
    },
    notArray(section, value) {
      problems.add([section], `expected an array, got ${kindOf(value)}`);
    },
    element(section, index, value) {
      collectElement(section, index, value, facts, problems);
    },
  });
  return facts;
}
