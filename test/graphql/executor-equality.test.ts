import { request, type IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The graphql-jit plugin (src/graphql/jit.ts) answers /graphql as graphql-js does. Two gateways on
 * identical databases and clocks, one with GRAPHQL_EXECUTOR=compiled and one with
 * GRAPHQL_EXECUTOR=standard, get the same corpus in the same order (twice, so compiled documents
 * are reused), then random requests; every answer must be the same to the byte: status line,
 * header names and values (except Date) and body. test/graphql/compiled-executor.test.ts does
 * the same for the REST operations and webhook payloads.
 */

const CLOCK = Date.parse('2026-03-01T10:00:00.000Z');

type Caller = 'developer' | 'timesheet' | 'none' | 'bad-token' | 'no-subscription-key';

interface Case {
  name: string;
  method?: string;
  /** Appended to /graphql. */
  search?: string;
  body?: string;
  headers?: Record<string, string>;
  caller?: Caller;
}

const json = (value: unknown) => JSON.stringify(value);
const q = (query: string, extra: Record<string, unknown> = {}) => json({ query, ...extra });
const get = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

const TIMESHEET = '{ timesheet(timesheetId: 9001) { timesheetId } }';
const TIMESHEET_BY_VARIABLE = 'query One($id: Int!) { timesheet(timesheetId: $id) { timesheetId } }';
const EVENTS = '{ webhookEvents { event eventType } }';
const STAFFS = 'query Page($n: Int) { staffs(first: $n) { edges { node { employeeId } } pageInfo { hasNextPage } } }';
const CREATE = 'mutation ($input: CreateEventSubscriptionInput!) { createEventSubscription(input: $input) { eventSubscription { subscriptionId uri createdDateTime } } }';
const CREATE_INPUT = { input: { subscriberId: 301, uri: 'https://payroll.example.com/hooks' } };
const TWO_OPERATIONS = 'query A { webhookEvents { event } } query B { __typename }';
const DEEP = '{ a { b { c { d { e { f { g { h { i { j { k { l } } } } } } } } } } } }';
const ALIASES = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
const TOKENS = `{ ${'__typename '.repeat(2100)} }`;
const DIRECTIVES = `{ __typename ${'@skip(if: false) '.repeat(12)} }`;
const LICENSES = 'query L($l: String) { staff(employeeId: 1001) { licenses(first: 2, licenseNumber: $l) { edges { node { licenseNumber } } } } }';
const FILTER_FIELDS = 'query F($s: String, $e: String) { staffs(first: 2, filter: { staffId: $s, email: $e }) { edges { node { employeeId } } } }';
const FROM = 'query T($from: DateTime) { timesheets(first: 2, filter: { from: $from }) { edges { node { timesheetId } } } }';
const STAFF_ID = Buffer.from('Staff:1001').toString('base64');
const NODE = 'query N($id: ID!) { node(id: $id) { __typename id ... on Staff { employeeId } } }';
const NODES = 'query N($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }';
const INCLUDE = 'query I($with: Boolean!) { webhookEvents { event eventType @include(if: $with) } }';
const EXPENSIVE = 'query Page($n: Int) { staffs(first: $n) { edges { node { employeeId firstName lastName } } } }';

const CORPUS: Case[] = [
  // Well-formed JSON POSTs, GETs and batches.
  { name: 'timesheet read', body: q(TIMESHEET), caller: 'timesheet' },
  { name: 'timesheet read with variables', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 9001 }, operationName: 'One' }), caller: 'timesheet' },
  { name: 'record not found', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 1 } }), caller: 'timesheet' },
  { name: 'field outside the key type', body: q(TIMESHEET), caller: 'developer' },
  { name: 'list page', body: q(STAFFS, { variables: { n: 2 } }), caller: 'developer' },
  { name: 'null variables, extensions and operation name', body: q(EVENTS, { variables: null, extensions: null, operationName: null }), caller: 'developer' },
  { name: 'empty extensions object', body: q(EVENTS, { extensions: {} }), caller: 'developer' },
  { name: 'mutation', body: q(CREATE, { variables: CREATE_INPUT }), caller: 'developer' },
  { name: 'mutation with a bad input', body: q(CREATE, { variables: { input: { subscriberId: 999999, uri: 'ftp://x' } } }), caller: 'developer' },
  { name: 'mutation with the wrong key type', body: q(CREATE, { variables: CREATE_INPUT }), caller: 'timesheet' },
  { name: 'operation chosen by name', body: q(TWO_OPERATIONS, { operationName: 'B' }), caller: 'developer' },
  { name: 'two operations, none named', body: q(TWO_OPERATIONS), caller: 'developer' },
  { name: 'unknown operation name', body: q(TWO_OPERATIONS, { operationName: 'C' }), caller: 'developer' },
  { name: 'syntax error', body: q('{ timesheet('), caller: 'developer' },
  { name: 'empty document', body: q(''), caller: 'developer' },
  { name: 'unknown field', body: q('{ nope }'), caller: 'developer' },
  { name: 'unknown field (graphql-response+json)', body: q('{ nope }'), headers: { accept: 'application/graphql-response+json' }, caller: 'developer' },
  { name: 'missing variable', body: q(TIMESHEET_BY_VARIABLE), caller: 'timesheet' },
  { name: 'variable of the wrong type', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 'x' } }), caller: 'timesheet' },
  { name: 'variable of the wrong type (graphql-response+json)', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 'x' } }), headers: { accept: 'application/graphql-response+json' }, caller: 'timesheet' },
  { name: 'depth limit', body: q(DEEP), caller: 'developer' },
  { name: 'alias limit', body: q(ALIASES), caller: 'developer' },
  { name: 'token limit', body: q(TOKENS), caller: 'developer' },
  { name: 'token limit (graphql-response+json)', body: q(TOKENS), headers: { accept: 'application/graphql-response+json' }, caller: 'developer' },
  { name: 'directive limit', body: q(DIRECTIVES), caller: 'developer' },
  { name: 'cost limit from a variable', body: q(EXPENSIVE, { variables: { n: 100000 } }), caller: 'developer' },
  { name: 'cost limit (graphql-response+json)', body: q(EXPENSIVE, { variables: { n: 100000 } }), headers: { accept: 'application/graphql-response+json' }, caller: 'developer' },
  { name: 'same document under the cost limit', body: q(EXPENSIVE, { variables: { n: 3 } }), caller: 'developer' },
  { name: 'introspection', body: q('{ __schema { queryType { name } } }'), caller: 'developer' },
  { name: 'accept */*', body: q(EVENTS), headers: { accept: '*/*' }, caller: 'developer' },
  { name: 'accept application/json', body: q(EVENTS), headers: { accept: 'application/json' }, caller: 'developer' },
  { name: 'accept graphql-response+json', body: q(EVENTS), headers: { accept: 'application/graphql-response+json' }, caller: 'developer' },
  { name: 'accept both, json preferred', body: q('{ nope }'), headers: { accept: 'application/json, application/graphql-response+json;q=0.9' }, caller: 'developer' },
  { name: 'accept both, graphql-response+json first', body: q('{ nope }'), headers: { accept: 'application/graphql-response+json, application/json' }, caller: 'developer' },
  { name: 'accept with a UTF-8 charset', body: q(EVENTS), headers: { accept: 'application/json; charset=utf-8' }, caller: 'developer' },
  { name: 'accept application/*', body: q(EVENTS), headers: { accept: 'application/*' }, caller: 'developer' },
  { name: 'accept event stream or json', body: q(EVENTS), headers: { accept: 'text/event-stream, application/json' }, caller: 'developer' },
  { name: 'content type graphql+json', body: q(EVENTS), headers: { 'content-type': 'application/graphql+json' }, caller: 'developer' },
  { name: 'content type with charset', body: q(EVENTS), headers: { 'content-type': 'application/json; charset=utf-8' }, caller: 'developer' },
  { name: 'GET query', method: 'GET', search: get({ query: EVENTS }), caller: 'developer' },
  { name: 'GET with variables and operation name', method: 'GET', search: get({ query: TIMESHEET_BY_VARIABLE, variables: json({ id: 9001 }), operationName: 'One' }), caller: 'timesheet' },
  { name: 'GET with extensions', method: 'GET', search: get({ query: EVENTS, extensions: json({ a: 1 }) }), caller: 'developer' },
  { name: 'GET mutation', method: 'GET', search: get({ query: CREATE, variables: json(CREATE_INPUT) }), caller: 'developer' },
  { name: 'GET syntax error', method: 'GET', search: get({ query: '{' }), caller: 'developer' },
  { name: 'GET unknown operation name', method: 'GET', search: get({ query: TWO_OPERATIONS, operationName: 'C' }), caller: 'developer' },
  { name: 'GET graphql-response+json', method: 'GET', search: get({ query: '{ nope }' }), headers: { accept: 'application/graphql-response+json' }, caller: 'developer' },
  { name: 'batch', body: json([{ query: EVENTS }, { query: TIMESHEET }]), caller: 'developer' },
  { name: 'batch with errors', body: json([{ query: '{ nope }' }, { query: '{' }, { query: TIMESHEET_BY_VARIABLE, variables: { id: 'x' } }]), caller: 'timesheet' },
  { name: 'batch with errors (graphql-response+json)', body: json([{ query: '{ nope }' }, { query: EVENTS }]), headers: { accept: 'application/graphql-response+json' }, caller: 'developer' },
  { name: 'batch with a mutation', body: json([{ query: CREATE, variables: CREATE_INPUT }, { query: EVENTS }]), caller: 'developer' },
  // Where graphql-jit and graphql-js part ways (src/graphql/jit.ts): callers' queries run
  // compiled on one gateway and on graphql-js on the other, so each must answer the same.
  { name: 'the same read again (compiled document reused)', body: q(TIMESHEET), caller: 'timesheet' },
  { name: 'Int variable out of range', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 2 ** 31 } }), caller: 'timesheet' },
  { name: 'Int variable given a fraction', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 1.5 } }), caller: 'timesheet' },
  { name: 'Int variable given a numeric string', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: '9001' } }), caller: 'timesheet' },
  { name: 'Int variable given a whole float', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 9001.0 } }), caller: 'timesheet' },
  { name: 'non-null variable given null', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: null } }), caller: 'timesheet' },
  { name: 'variables that are not declared', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 9001, other: { a: 1 } } }), caller: 'timesheet' },
  { name: 'nullable variable absent', body: q(STAFFS), caller: 'developer' },
  { name: 'nullable variable null', body: q(STAFFS, { variables: { n: null } }), caller: 'developer' },
  { name: 'variable with a default, absent', body: q('query Page($n: Int = 1) { staffs(first: $n) { edges { node { employeeId } } } }'), caller: 'developer' },
  { name: 'variable with a default, null', body: q('query Page($n: Int = 1) { staffs(first: $n) { edges { node { employeeId } } } }', { variables: { n: null } }), caller: 'developer' },
  { name: 'absent and null argument told apart', body: q(LICENSES), caller: 'developer' },
  { name: 'absent and null argument told apart (null)', body: q(LICENSES, { variables: { l: null } }), caller: 'developer' },
  { name: 'absent and null argument told apart (value)', body: q(LICENSES, { variables: { l: 'NSW-0002' } }), caller: 'developer' },
  { name: 'variable absent inside an input object', body: q(FILTER_FIELDS, { variables: { s: 'S-1001' } }), caller: 'developer' },
  { name: 'variable null inside an input object', body: q(FILTER_FIELDS, { variables: { s: null, e: null } }), caller: 'developer' },
  { name: 'input object literal', body: q('{ staffs(first: 2, filter: { staffId: "S-1001" }) { edges { node { employeeId } } } }'), caller: 'developer' },
  { name: 'input object variable with a field left out', body: q('query F($f: StaffFilter) { staffs(first: 2, filter: $f) { edges { node { employeeId } } } }', { variables: { f: { staffId: 'S-1001' } } }), caller: 'developer' },
  { name: 'input object variable with an unknown field', body: q('query F($f: StaffFilter) { staffs(first: 2, filter: $f) { edges { node { employeeId } } } }', { variables: { f: { nope: 1 } } }), caller: 'developer' },
  { name: 'custom scalar variable', body: q(FROM, { variables: { from: '2026-11-01T00:00:00+10:00' } }), caller: 'timesheet' },
  { name: 'custom scalar variable refused', body: q(FROM, { variables: { from: 'not a date' } }), caller: 'timesheet' },
  { name: 'custom scalar variable of the wrong kind', body: q(FROM, { variables: { from: 20261101 } }), caller: 'timesheet' },
  { name: 'custom scalar literal', body: q('{ timesheets(first: 2, filter: { from: "2026-11-01T00:00:00Z" }) { edges { node { timesheetId } } } }'), caller: 'timesheet' },
  { name: 'ID variable given a number', body: q(NODE, { variables: { id: 5 } }), caller: 'developer' },
  { name: 'ID variable given a float', body: q(NODE, { variables: { id: 5.5 } }), caller: 'developer' },
  { name: 'abstract type resolved', body: q(NODE, { variables: { id: STAFF_ID } }), caller: 'developer' },
  { name: 'abstract type, another company', body: q(NODE, { variables: { id: Buffer.from('Staff:2001').toString('base64') } }), caller: 'developer' },
  { name: 'list variable given one value', body: q(NODES, { variables: { ids: STAFF_ID } }), caller: 'developer' },
  { name: 'list variable with a null item', body: q(NODES, { variables: { ids: [STAFF_ID, null] } }), caller: 'developer' },
  { name: 'list literal holding a variable', body: q('query N($id: ID!) { nodes(ids: [$id, "x"]) { id } }', { variables: { id: STAFF_ID } }), caller: 'developer' },
  { name: '@include with a variable', body: q(INCLUDE, { variables: { with: false } }), caller: 'developer' },
  { name: '@include with a variable (true)', body: q(INCLUDE, { variables: { with: true } }), caller: 'developer' },
  { name: '@skip with a nullable variable given null', body: q('query S($skip: Boolean = false) { webhookEvents { event @skip(if: $skip) eventType } }', { variables: { skip: null } }), caller: 'developer' },
  { name: '@skip with a nullable variable absent', body: q('query S($skip: Boolean = true) { webhookEvents { event @skip(if: $skip) eventType } }'), caller: 'developer' },
  { name: '@skip and @include literals', body: q('{ webhookEvents { event @skip(if: true) eventType @include(if: false) } __typename @include(if: true) }'), caller: 'developer' },
  { name: 'resolver errors under aliases and a fragment', body: q('{ a: timesheet(timesheetId: 1) { ...T } b: timesheet(timesheetId: 2) { ...T } c: timesheet(timesheetId: 9001) { ...T } } fragment T on Timesheet { timesheetId }'), caller: 'timesheet' },
  { name: 'resolver error on a field asked for twice', body: q('{ timesheet(timesheetId: 1) { timesheetId }\n  timesheet(timesheetId: 1) { __typename } }'), caller: 'timesheet' },
  { name: 'resolver error on a field outside the key type, beside data', body: q('{ webhookEvents { event } timesheet(timesheetId: 9001) { timesheetId } }'), caller: 'developer' },
  { name: 'aliases, inline fragments and __typename', body: q('query { t: timesheet(timesheetId: 9001) { ... on Timesheet { id: timesheetId } __typename ...F } } fragment F on Timesheet { timesheetId }'), caller: 'timesheet' },
  { name: 'introspection of one type', body: q('{ __type(name: "Staff") { name fields { name } } }'), caller: 'developer' },
  { name: 'typename only', body: q('{ __typename }'), caller: 'developer' },
  { name: 'query beside a mutation, the query chosen', body: q(`query R { webhookEvents { event } } ${CREATE.replace('mutation (', 'mutation W(')}`, { operationName: 'R' }), caller: 'developer' },
  { name: 'query over GET, twice compiled document', method: 'GET', search: get({ query: TIMESHEET_BY_VARIABLE, variables: json({ id: 9002 }) }), caller: 'timesheet' },
  { name: 'batch at the limit', body: json(Array.from({ length: 10 }, () => ({ query: '{ __typename }' }))), caller: 'developer' },

  // Malformed requests, other media types and methods, streams.
  { name: 'batch over the limit', body: json(Array.from({ length: 11 }, () => ({ query: '{ __typename }' }))), caller: 'developer' },
  { name: 'empty batch', body: '[]', caller: 'developer' },
  { name: 'batch with a non-object', body: json([{ query: EVENTS }, 1]), caller: 'developer' },
  { name: 'batch with a bad item', body: json([{ query: EVENTS }, { query: EVENTS, variables: 'x' }]), caller: 'developer' },
  { name: 'malformed JSON', body: '{"query": ', caller: 'developer' },
  { name: 'empty body', body: '', caller: 'developer' },
  { name: 'body is a string', body: '"{ __typename }"', caller: 'developer' },
  { name: 'body is a number', body: '42', caller: 'developer' },
  { name: 'body is null', body: 'null', caller: 'developer' },
  { name: 'no query', body: '{}', caller: 'developer' },
  { name: 'query is a number', body: json({ query: 1 }), caller: 'developer' },
  { name: 'query is null', body: json({ query: null }), caller: 'developer' },
  { name: 'variables is a string', body: q(EVENTS, { variables: '{}' }), caller: 'developer' },
  { name: 'variables is an array', body: q(EVENTS, { variables: [] }), caller: 'developer' },
  { name: 'extensions is a string', body: q(EVENTS, { extensions: 'x' }), caller: 'developer' },
  { name: 'extensions is an array', body: q(EVENTS, { extensions: [1] }), caller: 'developer' },
  { name: 'extensions is a number', body: q(EVENTS, { extensions: 1 }), caller: 'developer' },
  { name: 'operation name is a number', body: q(TWO_OPERATIONS, { operationName: 1 }), caller: 'developer' },
  { name: 'operation name is an object', body: q(TWO_OPERATIONS, { operationName: {} }), caller: 'developer' },
  { name: 'unknown parameter', body: q(EVENTS, { foo: 1 }), caller: 'developer' },
  { name: 'unknown parameter that is null', body: q(EVENTS, { foo: null }), caller: 'developer' },
  { name: 'GET without a query', method: 'GET', search: get({ variables: '{}' }), caller: 'developer' },
  { name: 'GET without parameters', method: 'GET', caller: 'developer' },
  { name: 'GET with malformed variables', method: 'GET', search: get({ query: EVENTS, variables: '{' }), caller: 'developer' },
  { name: 'GET with variables that are not an object', method: 'GET', search: get({ query: EVENTS, variables: '[1]' }), caller: 'developer' },
  { name: 'GET with extensions that are not an object', method: 'GET', search: get({ query: EVENTS, extensions: '"x"' }), caller: 'developer' },
  { name: 'GET for a browser page', method: 'GET', headers: { accept: 'text/html' }, caller: 'none' },
  { name: 'accept text/plain', body: q(EVENTS), headers: { accept: 'text/plain' }, caller: 'developer' },
  { name: 'accept a non-UTF-8 charset', body: q(EVENTS), headers: { accept: 'application/json; charset=iso-8859-1' }, caller: 'developer' },
  { name: 'accept multipart only', body: q(EVENTS), headers: { accept: 'multipart/mixed' }, caller: 'developer' },
  { name: 'accept event stream only', body: q(EVENTS), headers: { accept: 'text/event-stream' }, caller: 'developer' },
  { name: 'content type in capitals', body: q(EVENTS), headers: { 'content-type': 'Application/JSON' }, caller: 'developer' },
  { name: 'content type text/plain', body: q(EVENTS), headers: { 'content-type': 'text/plain' }, caller: 'developer' },
  { name: 'content type form', body: 'query=%7B__typename%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' }, caller: 'developer' },
  { name: 'content type with another charset', body: q(EVENTS), headers: { 'content-type': 'application/json; charset=latin1' }, caller: 'developer' },
  { name: 'PUT', method: 'PUT', body: q(EVENTS), caller: 'developer' },
  { name: 'DELETE', method: 'DELETE', body: q(EVENTS), caller: 'developer' },
  { name: 'subscription answered as JSON', body: q('subscription { events { event } }'), caller: 'developer' },
  { name: 'subscription spelled with JSON escapes', body: '{"query":"\\u0073ubscription { events { event } }"}', caller: 'developer' },
  { name: 'subscription that does not validate', body: q('subscription { __typename }'), caller: 'developer' },
  { name: 'subscription beside the query that runs', body: q('subscription S { events { event } } query Q { __typename }', { operationName: 'Q' }), caller: 'developer' },

  // Refused before either answers.
  { name: 'no credentials', body: q(EVENTS), caller: 'none' },
  { name: 'invalid token', body: q(EVENTS), caller: 'bad-token' },
  { name: 'no subscription key', body: q(EVENTS), caller: 'no-subscription-key' },
];

interface Gateway {
  t: TestApp;
  tokens: Record<'developer' | 'timesheet', string>;
}

async function gateway(executor: 'compiled' | 'standard'): Promise<Gateway> {
  const t = await startTestApp({ now: () => CLOCK, env: { GRAPHQL_EXECUTOR: executor } });
  const developer = await t.token({ type: 'developer', companyId: 1 });
  const timesheet = await t.token({ type: 'timesheet', companyId: 1 });
  return { t, tokens: { developer, timesheet } };
}

async function send(g: Gateway, c: Case, index: number): Promise<{ status: number; statusMessage: string; headers: string[]; body: string }> {
  const headers: Record<string, string> = { 'x-request-id': `case-${index}` };
  const caller = c.caller ?? 'developer';
  if (caller !== 'no-subscription-key') headers['external-gh-apim-sub-key'] = SUB_KEY;
  if (caller === 'developer' || caller === 'timesheet') headers.authorization = `Bearer ${g.tokens[caller]}`;
  if (caller === 'bad-token') headers.authorization = 'Bearer not-a-token';
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, c.headers);
  // node's client, so header names are compared as they were written, not as Fetch folds them.
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request(`${g.t.baseUrl}/graphql${c.search ?? ''}`, { method: c.method ?? (c.body === undefined ? 'GET' : 'POST'), headers }, resolve);
    sent.on('error', reject);
    sent.end(c.body);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  g.t.openApiProblems.splice(0);
  const kept: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!;
    const value = res.rawHeaders[i + 1]!;
    if (/^(date|keep-alive|connection)$/i.test(name)) continue;
    // The rate limit's window runs on the wall clock, not the test's: its seconds to reset differ by when the request came.
    kept.push(`${name}: ${/^ratelimit$/i.test(name) ? value.replace(/;t=\d+/, '') : value}`);
  }
  return { status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: kept.sort(), body };
}

describe('/graphql answers alike with and without graphql-jit', () => {
  let compiled: Gateway;
  let standard: Gateway;

  beforeAll(async () => {
    compiled = await gateway('compiled');
    standard = await gateway('standard');
  });
  afterAll(async () => {
    await compiled?.t.close();
    await standard?.t.close();
  });

  it('answers every request of the corpus, sent twice, as graphql-js does', async () => {
    const differences: string[] = [];
    for (const round of [0, 1]) {
      for (const [index, c] of CORPUS.entries()) {
        const mine = await send(compiled, c, 2000 * round + index);
        const theirs = await send(standard, c, 2000 * round + index);
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) differences.push(`${c.name} (round ${round}):\n  compiled ${json(mine)}\n  standard ${json(theirs)}`);
      }
    }
    expect(differences, differences.join('\n')).toEqual([]);
  });

  it("runs a compiled query with each caller's own scope", async () => {
    const STAFF = 'query S($id: Int!) { staff(employeeId: $id) { employeeId firstName } }';
    const mine = await compiled.t.token({ type: 'developer', companyId: 1 });
    const other = await compiled.t.token({ type: 'developer', companyId: 2 });
    const ask = async (token: string, id: number) => {
      const res = await fetch(`${compiled.t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
        body: q(STAFF, { variables: { id } }),
      });
      return (await res.json()) as { data?: { staff: { employeeId: number } | null }; errors?: { extensions?: { code?: string } }[] };
    };
    // Company 1's staff member 1001, asked until the document is compiled.
    for (let i = 0; i < 3; i++) expect((await ask(mine, 1001)).data?.staff?.employeeId).toBe(1001);
    // Another company's caller, same text: never company 1's record.
    const refused = await ask(other, 1001);
    expect(refused.data?.staff ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it.each([
    ['an internal failure, masked and tagged with the request id', () => new Error('no such column: secret_detail')],
    ['a busy database, as 503', () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
  ])('answers %s as graphql-js does', async (_name, failure) => {
    const CURSORS = '{ staffs(first: 2) { edges { cursor node { employeeId } } } }';
    const cases: Case[] = [
      { name: 'failing resolver', body: q(CURSORS) },
      { name: 'failing resolver (graphql-response+json)', body: q(CURSORS), headers: { accept: 'application/graphql-response+json' } },
      { name: 'failing resolver in a batch', body: json([{ query: CURSORS }, { query: EVENTS }]) },
      { name: 'failing resolver over GET', method: 'GET', search: get({ query: CURSORS }) },
    ];
    const originals = [compiled, standard].map((g) => g.t.app.services.cursors.encode);
    for (const g of [compiled, standard]) {
      g.t.app.services.cursors.encode = () => {
        throw failure();
      };
    }
    try {
      for (const [index, c] of cases.entries()) {
        const mine = await send(compiled, c, 900 + index);
        expect(mine, c.name).toEqual(await send(standard, c, 900 + index));
        expect(mine.body).not.toContain('secret_detail');
      }
    } finally {
      [compiled, standard].forEach((g, i) => (g.t.app.services.cursors.encode = originals[i]!));
    }
  });

  it('answers random documents, variables and bodies as graphql-js does', async () => {
    const anyDocument = fc.oneof(
      fc.constantFrom(
        TIMESHEET,
        TIMESHEET_BY_VARIABLE,
        EVENTS,
        STAFFS,
        EXPENSIVE,
        CREATE,
        TWO_OPERATIONS,
        'query Q($id: ID!) { node(id: $id) { id } }',
        'mutation M($input: UpdateEventSubscriptionInput!) { updateEventSubscription(input: $input) { eventSubscription { subscriptionId } } }',
        'subscription { events { event } }',
        '{ staff(employeeId: 1001) { ...F } } fragment F on Staff { ...F }',
      ),
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => `{ ${text} }`),
    );
    const anyVariables = fc.oneof(
      fc.constant(undefined),
      fc.record(
        {
          id: fc.oneof(fc.integer(), fc.constantFrom(9001, 1001, 2 ** 31), fc.string({ maxLength: 10 }), fc.constant(null)),
          n: fc.oneof(fc.integer({ min: -5, max: 200_000 }), fc.constant(null)),
          input: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(CREATE_INPUT.input)),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const anyOperationName = fc.oneof(fc.constant(undefined), fc.constantFrom('A', 'B', 'One', 'Page', 'Q', 'M', null), fc.jsonValue({ maxDepth: 1 }));
    const anyExtensions = fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 1 }));
    // No event stream or multipart: a subscription would open a stream that stays open.
    const anyAccept = fc.constantFrom(undefined, 'application/json', 'application/graphql-response+json', 'application/graphql-response+json, application/json', '*/*', 'text/plain');
    let index = 1000;
    const differences: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        anyDocument,
        anyVariables,
        anyOperationName,
        anyExtensions,
        fc.constantFrom('json', 'json', 'get', 'batch', 'raw'),
        fc.string({ maxLength: 40 }),
        anyAccept,
        fc.constantFrom<Caller>('developer', 'developer', 'timesheet'),
        async (query, variables, operationName, extensions, shape, raw, accept, caller) => {
          const params = { query, variables, operationName, extensions };
          const c: Case = { name: 'random', caller, ...(accept ? { headers: { accept } } : {}) };
          if (shape === 'get') {
            const search: Record<string, string> = { query };
            if (variables !== undefined) search.variables = json(variables);
            if (typeof operationName === 'string') search.operationName = operationName;
            if (extensions !== undefined) search.extensions = json(extensions);
            c.method = 'GET';
            c.search = get(search);
          } else {
            c.body = shape === 'raw' ? raw : json(shape === 'batch' ? [params, { query: EVENTS }] : params);
          }
          index++;
          const mine = await send(compiled, c, index);
          const theirs = await send(standard, c, index);
          if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
            differences.push(`${json(c)}:\n  compiled ${json(mine)}\n  standard ${json(theirs)}`);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(differences, differences.slice(0, 5).join('\n')).toEqual([]);
  }, 120_000);

});
