import { badInput } from '../shared/errors.js';

/** One event/eventType pair a subscription may bind to. */
export interface CatalogEntry {
  event: string;
  eventType: string;
  description: string;
}

// The contract leaves the catalog open; these pairs are the ones shiftgate can actually
// produce. Adding a pair here is the only step needed for subscriptions and imports to accept it.
export const EVENT_CATALOG: readonly CatalogEntry[] = [
  { event: 'timesheet', eventType: 'created', description: 'A timesheet entry was created.' },
  { event: 'timesheet', eventType: 'updated', description: 'A field of a timesheet entry changed.' },
  {
    event: 'timesheet',
    eventType: 'approved',
    description: 'A timesheet entry’s status became Approved (case-insensitive); sent with its updated or created event.',
  },
  { event: 'license', eventType: 'created', description: 'A security license was added to an employee.' },
  { event: 'license', eventType: 'updated', description: 'A field of a security license changed.' },
  { event: 'license', eventType: 'expiring', description: 'Sent once per license and expiry date when now ≥ expiryDate − reminder days.' },
  { event: 'license', eventType: 'expired', description: 'Sent once per license and expiry date when now ≥ expiryDate.' },
];

export type CatalogEvent = 'timesheet' | 'license';

/** Why a pair is refused, or null when it is in the catalog. Shared by the API and the import. */
export function catalogProblem(event: string, eventType: string): string | null {
  if (EVENT_CATALOG.some((entry) => entry.event === event && entry.eventType === eventType)) return null;
  const known = EVENT_CATALOG.map((entry) => `${entry.event}/${entry.eventType}`).join(', ');
  return `${event}/${eventType} is not in the event catalog (${known})`;
}

export function checkCatalogPair(event: string, eventType: string): void {
  const problem = catalogProblem(event, eventType);
  if (problem) throw badInput(problem);
}
