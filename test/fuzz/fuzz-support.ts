import fc from 'fast-check';
import type { TestApp } from '../support/test-app.js';

/** Tables a rejected write must leave exactly as they were. */
const TABLES = ['subscriptions', 'subscribers', 'event_filters', 'webhook_deliveries', 'webhook_events', 'api_keys', 'timesheets', 'licenses', 'staff'];

export async function snapshot(t: TestApp): Promise<string> {
  const parts: unknown[] = [];
  for (const table of TABLES) parts.push(await t.app.db(table).select().orderBy(1));
  return JSON.stringify(parts);
}

/** Identifiers as a prober would send them: valid, foreign, huge, negative, fractional, unicode, broken escapes. */
export const anyId = fc.oneof(
  fc.constantFrom('1', '301', '401', '1001', '2001', '9001', '9004', '0', '-1', '1.5', '1e3', '0x10', '9007199254740993', '99999999999999999999999'),
  fc.nat().map(String),
  fc.integer().map(String),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map(encodeURIComponent),
  fc.constantFrom('%', '%E0%A4%A', '..%2F..', '%00', 'null', 'undefined', 'true', '[]', '{}'),
);

const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -0),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('https://example.com/hook', 'http://127.0.0.1/', 'javascript:alert(1)', 'timesheet', 'approved', '', ' '),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Bodies: JSON objects with contract fields of the wrong (or right) types, mass-assignment fields, junk. */
export const anyBody: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc
    .record(
      {
        subscriberId: junkValue,
        uri: junkValue,
        isActive: junkValue,
        event: junkValue,
        eventType: junkValue,
        webhookSubscriberEventFilterId: junkValue,
        id: junkValue,
        companyId: junkValue,
        apiKey: junkValue,
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{', '{"a":', '[1,2', '"after=abc"', 'after=zzz', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 30 }).map((a) => JSON.stringify({ nested: a })),
);

export const anyContentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/graphql',
  'application/json; charset=latin1',
  '*/*',
  'garbage',
);

export const anyQuery = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('pageSize', 'after', 'before', 'licenseNumber', 'id', 'subscriberId', 'first'), fc.string({ maxLength: 8 })),
      fc.oneof(fc.constantFrom('0', '1', '100', '101', '-5', '1e9', 'abc', '', 'after=x'), fc.string({ maxLength: 30 })),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));
