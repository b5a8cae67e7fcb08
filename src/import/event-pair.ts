import { catalogProblem } from '../webhooks/catalog.js';

/** Whether an event/eventType pair may be subscribed to; returns the reason when not. */
export function checkEventPair(event: string, eventType: string): string | null {
  if (event.trim() === '') return 'event must not be blank';
  if (eventType.trim() === '') return 'eventType must not be blank';
  return catalogProblem(event, eventType);
}
