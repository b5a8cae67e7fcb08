import type { z } from 'zod';
import { kindOf, REFERENCES, SECTION_NAMES, SECTIONS, type ImportFile, type ReferenceTarget, type Section } from './format.js';
import { formatPath, type PathSegment, type Problems } from './problems.js';
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

/**
 * Facts read from the raw elements, valid or not, so that the database checks report on
 * every element and a reference to an invalid element does not also read as "does not exist".
 */
export interface FileFacts {
  ids: { [S in Section]: Map<number, number> };
  references: Reference[];
  eventFilters: EventFilterFacts[];
  /** Event filter id → where it first appears. */
  eventFilterIds: Map<number, PathSegment[]>;
}

export interface ParsedInput {
  /** The elements that passed every shape check, normalised. */
  file: ImportFile;
  facts: FileFacts;
}

function idLike(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

function reportIssues(issues: readonly z.core.$ZodIssue[], at: PathSegment[], problems: Problems): void {
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

function collectFacts(section: Section, elements: unknown[], facts: FileFacts, problems: Problems): void {
  const { idField } = SECTIONS[section];
  const seen = facts.ids[section];
  const references = REFERENCES.filter((ref) => ref.section === section);
  elements.forEach((element, index) => {
    if (!isPlainObject(element)) return;
    const id = element[idField];
    if (idLike(id)) {
      const first = seen.get(id);
      if (first === undefined) seen.set(id, index);
      else problems.add([section, index, idField], `duplicate id ${id} (first at ${section}[${first}])`);
    }
    for (const { field, target } of references) {
      const ref = element[field];
      if (idLike(ref)) facts.references.push({ section, index, field, target, id: ref });
    }
    if (section === 'subscribers') collectEventFilters(element, index, facts, problems);
  });
}

/** Checks the file's shape and field values; valid elements come back normalised. */
export function parseInput(input: unknown, problems: Problems): ParsedInput {
  const file = Object.fromEntries(SECTION_NAMES.map((s) => [s, []])) as unknown as ImportFile;
  const facts: FileFacts = {
    ids: Object.fromEntries(SECTION_NAMES.map((s) => [s, new Map()])) as FileFacts['ids'],
    references: [],
    eventFilters: [],
    eventFilterIds: new Map(),
  };
  if (!isPlainObject(input)) {
    problems.add([], `expected a JSON object, got ${kindOf(input)}`);
    return { file, facts };
  }
  for (const key of Object.keys(input)) {
    if (!(key in SECTIONS)) problems.add([key], `unknown top-level key (expected ${SECTION_NAMES.join(', ')})`);
  }
  for (const section of SECTION_NAMES) {
    const elements = input[section];
    if (elements === undefined || elements === null) continue;
    if (!Array.isArray(elements)) {
      problems.add([section], `expected an array, got ${kindOf(elements)}`);
      continue;
    }
    collectFacts(section, elements, facts, problems);
    const schema: z.ZodType = SECTIONS[section].schema;
    const valid = file[section] as { index: number; value: unknown }[];
    elements.forEach((element: unknown, index) => {
      if (!isPlainObject(element)) {
        problems.add([section, index], `expected an object, got ${kindOf(element)}`);
        return;
      }
      const result = schema.safeParse(element);
      if (result.success) valid.push({ index, value: result.data });
      else reportIssues(result.error.issues, [section, index], problems);
    });
  }
  return { file, facts };
}
