import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import { learnNodeTypes } from './global-id.js';
import './types/license.js';
import './types/staff.js';
import './types/timesheet.js';
import './types/event-subscription.js';
import './types/subscriber.js';
import './types/customer.js';
import './types/site.js';
import './types/webhook-event.js';
import './types/delivery.js';
import './subscriptions/events.js';

export const schema = builder.toSchema();
learnNodeTypes(schema);

/** The SDL committed as schema/schema.graphql. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
