import fc from 'fast-check';
import { bodyVariables } from '../../src/rest/adapter.js';
import { routes } from '../../src/rest/routes.js';
import { TOKEN_PATH } from '../../src/rest/token-route.js';
import type { CompanyRecords } from '../support/route-fixtures.js';
import { databaseSnapshot } from '../support/backend.js';
import type { TestApp } from '../support/test-app.js';

/** What a rejected write must leave exactly as it was: every table. */
export const snapshot = (t: TestApp): Promise<string> => databaseSnapshot(t.app.db);

/**
 * Path templates to aim at: every route of the table with its parameters as `{id}`, the token
 * request, and paths no route has.
 */
export const PATH_TEMPLATES = [
  ...new Set(routes.map((r) => r.path.replace(/:\w+/g, '{id}'))),
  TOKEN_PATH,
  '/api/{id}',
  '/api/external/{id}/{id}',
  '/{id}',
];

/**
 * Identifiers as a prober would send them: the records the routes name (both companies'),
 * foreign, huge, negative, fractional, unicode, broken escapes.
 */
export const anyId = (records: CompanyRecords[]) => fc.oneof(
  fc.constantFrom(...new Set(records.flatMap((r) => Object.values(r).map(String)))),
  fc.constantFrom('1', '0', '-1', '1.5', '1e3', '0x10', '9007199254740993', '99999999999999999999999'),
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

/** The fields any route's JSON body may set (its operation's body variables), and mass-assignment fields. */
const BODY_FIELDS = [
  ...new Set([...routes.flatMap((r) => bodyVariables(r).map((v) => v.variable.name.value)), 'apiKey', 'id', 'companyId', 'idempotencyKey']),
];

/** Bodies: JSON objects with contract fields of the wrong (or right) types, mass-assignment fields, junk. */
export const anyBody: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc
    .record(Object.fromEntries(BODY_FIELDS.map((name) => [name, junkValue])), { requiredKeys: [] })
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

/** Every query parameter some route declares, and names none does. */
const QUERY_NAMES = [...new Set([...routes.flatMap((r) => r.query.map((q) => q.name)), 'id', 'subscriberId', 'first'])];

export const anyQuery = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 })),
      fc.oneof(
        fc.constantFrom('0', '1', '10', '100', '101', '-5', '1e9', 'abc', '', 'after=x', 'Pending', '2026-11-01T00:00:00Z', '2026-11-01', 'S-1001'),
        fc.string({ maxLength: 30 }),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));
