import type { ServerResponse } from 'node:http';
import { parse, type GraphQLSchema } from 'graphql';
import { badInput } from '../shared/errors.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import type { Principal } from '../shared/principal.js';
import type { GraphQLLimits } from './armor.js';
import { operationCost } from './cost.js';

/** Admits a POST body to /graphql, or throws the refusal; resolves once the key has paid. */
export type BatchAdmission = (body: Buffer, principal: Principal, res: ServerResponse) => void | Promise<void>;

const WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const OPENING_BRACKET = 0x5b;

/** One operation's cost; one that does not parse or name an operation clearly is refused before it runs, and counts nothing. */
function itemCost(schema: GraphQLSchema, item: unknown, maxTokens: number): number {
  if (!isPlainObject(item) || typeof item.query !== 'string') return 0;
  const variables = isPlainObject(item.variables) ? item.variables : undefined;
  const operationName = typeof item.operationName === 'string' ? item.operationName : undefined;
  try {
    return operationCost(schema, parse(item.query, { maxTokens, noLocation: true }), operationName, variables) ?? 0;
  } catch {
    return 0;
  }
}

/**
 * A batch counts as many requests as it has operations (authentication charged one, the others
 * are charged here), and their costs together are held to GRAPHQL_MAX_COST before any runs. Any
 * other body is left alone: one operation is costed as it runs, a bad batch is refused by yoga.
 */
export function batchAdmission(options: {
  schema: GraphQLSchema;
  limits: Pick<GraphQLLimits, 'maxCost' | 'maxTokens' | 'batchLimit' | 'exposeLimits'>;
  /** Charges the key `points` more requests of its budget; throws RATE_LIMITED when it cannot pay. */
  charge: (principal: Principal, res: ServerResponse, points: number) => void | Promise<void>;
}): BatchAdmission {
  const { schema, limits, charge } = options;
  const checkCost = (operations: unknown[]) => {
    const total = operations.reduce<number>((sum, item) => sum + itemCost(schema, item, limits.maxTokens), 0);
    if (total <= limits.maxCost) return;
    throw badInput(limits.exposeLimits ? `Batch cost limit of ${limits.maxCost} exceeded, found ${Math.ceil(total)}` : 'Batch cost limit exceeded');
  };
  return (body, principal, res) => {
    if (body.find((byte) => !WHITE_SPACE.has(byte)) !== OPENING_BRACKET) return;
    let operations: unknown;
    try {
      operations = JSON.parse(body.toString('utf8'));
    } catch {
      return;
    }
    if (!Array.isArray(operations) || operations.length < 2 || operations.length > limits.batchLimit) return;
    const paid = charge(principal, res, operations.length - 1);
    if (paid) return paid.then(() => checkCost(operations));
    checkCost(operations);
  };
}
