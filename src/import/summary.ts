import type { Outcome } from './plan.js';
import { ENTITIES, type Entity } from './rows.js';

export type EntitySummary = Record<Outcome, number[]>;

export interface ImportSummary {
  /** Per entity, the ids inserted, updated (stored values changed) and unchanged. */
  entities: Record<Entity, EntitySummary>;
  /** Subscribers created without a signingSecret, for which one was generated. */
  generatedSigningSecrets: number[];
}

/** A few lines for a terminal: totals and time taken, then one line per entity that the file mentioned. */
export function formatSummary(summary: ImportSummary, seconds: number): string {
  const lines: string[] = [];
  const total = { inserted: 0, updated: 0, unchanged: 0 };
  for (const entity of ENTITIES) {
    const { inserted, updated, unchanged } = summary.entities[entity];
    total.inserted += inserted.length;
    total.updated += updated.length;
    total.unchanged += unchanged.length;
    if (inserted.length + updated.length + unchanged.length === 0) continue;
    const records = inserted.length + updated.length + unchanged.length;
    lines.push(`  ${entity}: ${inserted.length} inserted, ${updated.length} updated, ${unchanged.length} unchanged (${records} ${records === 1 ? 'record' : 'records'})`);
  }
  const records = total.inserted + total.updated + total.unchanged;
  const head =
    `import complete: ${total.inserted} inserted, ${total.updated} updated, ${total.unchanged} unchanged ` +
    `(${records} ${records === 1 ? 'record' : 'records'} in ${seconds.toFixed(2)} s)`;
  if (summary.generatedSigningSecrets.length > 0) {
    lines.push(`  signing secrets generated for subscribers ${summary.generatedSigningSecrets.join(', ')}`);
  }
  return [head, ...lines].join('\n');
}
