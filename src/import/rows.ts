import { normaliseDateTime } from './date-time.js';
import type { Row } from '../repositories/import-tables.js';
import { toBool } from '../shared/db/columns.js';
import type { z } from 'zod';
import { eventFilterSchema, KINDS, SECTION_NAMES, SECTIONS, type Kind, type Section } from './format.js';

/** How one entity of the file maps onto its table: [contract field, column, kind], the id first. */
export interface TableSpec {
  table: string;
  idField: string;
  idColumn: string;
  fields: readonly (readonly [string, string, Kind])[];
}

/** The columns of a record's fields: each named after its field in snake case, of its type's kind. */
function tableOf(table: string, schema: z.ZodObject, extra: readonly (readonly [string, string, Kind])[] = []): TableSpec {
  const fields = Object.entries(schema.shape).flatMap(([field, type]) => {
    const kind = KINDS.get(type);
    return kind ? [[field, field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), kind] as const] : [];
  });
  return { table, idField: fields[0]![0], idColumn: fields[0]![1], fields: [...fields, ...extra] };
}

export const TABLES = {
  ...(Object.fromEntries(SECTION_NAMES.map((section) => [section, tableOf(section, SECTIONS[section])])) as Record<Section, TableSpec>),
  eventFilters: tableOf('event_filters', eventFilterSchema, [['subscriberId', 'subscriber_id', 'int']]),
};

export type Entity = keyof typeof TABLES;

/** What an import does to one record, decided by comparing the new row with the stored one. */
export type Outcome = 'inserted' | 'updated' | 'unchanged';

export interface PlannedRow {
  id: number;
  outcome: Outcome;
  row: Row;
  /** The stored row before the import; null for an inserted record. */
  before: Row | null;
}

/** Entities in the order they must be written (foreign keys point backwards). */
export const ENTITIES = Object.keys(TABLES) as Entity[];

/** The row to store for a validated record: a field left out is stored as null (an import states the whole record). */
export function toRow(spec: TableSpec, record: object): Row {
  const source = record as Record<string, unknown>;
  const row: Row = {};
  for (const [field, column, kind] of spec.fields) {
    const value = source[field] ?? null;
    row[column] = kind === 'json' && value !== null ? JSON.stringify(value) : value;
  }
  return row;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// Both sides go through the same reading, so backend quirks (SQLite's 0/1 booleans, PostgreSQL
// strings for big numbers, JSON key order, un-normalised date text) never count as a change.
function comparable(kind: Kind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'int':
      return Number(value);
    case 'bool':
      return toBool(value);
    case 'datetime':
      return normaliseDateTime(String(value)) ?? String(value);
    case 'json':
      try {
        return stableJson(typeof value === 'string' ? JSON.parse(value) : value);
      } catch {
        return String(value);
      }
    case 'text':
      return String(value);
  }
}

export function sameRow(spec: TableSpec, next: Row, stored: Row): boolean {
  return spec.fields.every(([, column, kind]) => comparable(kind, next[column]) === comparable(kind, stored[column]));
}
