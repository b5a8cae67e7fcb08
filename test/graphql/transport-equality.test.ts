import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlTransport } from '../../src/graphql/http-transport.js';
import type { Principal } from '../../src/shared/principal.js';
import { readUtf8Body } from '../../src/shared/http/read-body.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * /graphql answers the requests its own transport takes (src/graphql/http-transport.ts) and
 * yoga answers the rest. Two gateways on identical databases and clocks, one with the transport
 * and one with yoga alone, get the same corpus in the same order; every answer must be the same
 * to the byte: status line, header names and values (except Date) and body.
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
  /** Whether the transport answers it (checked on a bare server below); yoga answers the rest. */
  own: boolean;
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
  // What the transport takes: well-formed JSON POSTs, GETs and batches answered as JSON.
  { name: 'timesheet read', body: q(TIMESHEET), caller: 'timesheet', own: true },
  { name: 'timesheet read with variables', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 9001 }, operationName: 'One' }), caller: 'timesheet', own: true },
  { name: 'record not found', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 1 } }), caller: 'timesheet', own: true },
  { name: 'field outside the key type', body: q(TIMESHEET), caller: 'developer', own: true },
  { name: 'list page', body: q(STAFFS, { variables: { n: 2 } }), caller: 'developer', own: true },
  { name: 'null variables, extensions and operation name', body: q(EVENTS, { variables: null, extensions: null, operationName: null }), caller: 'developer', own: true },
  { name: 'empty extensions object', body: q(EVENTS, { extensions: {} }), caller: 'developer', own: true },
  { name: 'mutation', body: q(CREATE, { variables: CREATE_INPUT }), caller: 'developer', own: true },
  { name: 'mutation with a bad input', body: q(CREATE, { variables: { input: { subscriberId: 999999, uri: 'ftp://x' } } }), caller: 'developer', own: true },
  { name: 'mutation with the wrong key type', body: q(CREATE, { variables: CREATE_INPUT }), caller: 'timesheet', own: true },
  { name: 'operation chosen by name', body: q(TWO_OPERATIONS, { operationName: 'B' }), caller: 'developer', own: true },
  { name: 'two operations, none named', body: q(TWO_OPERATIONS), caller: 'developer', own: true },
  { name: 'unknown operation name', body: q(TWO_OPERATIONS, { operationName: 'C' }), caller: 'developer', own: true },
  { name: 'syntax error', body: q('{ timesheet('), caller: 'developer', own: true },
  { name: 'empty document', body: q(''), caller: 'developer', own: true },
  { name: 'unknown field', body: q('{ nope }'), caller: 'developer', own: true },
  { name: 'unknown field (graphql-response+json)', body: q('{ nope }'), headers: { accept: 'application/graphql-response+json' }, caller: 'developer', own: true },
  { name: 'missing variable', body: q(TIMESHEET_BY_VARIABLE), caller: 'timesheet', own: true },
  { name: 'variable of the wrong type', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 'x' } }), caller: 'timesheet', own: true },
  { name: 'variable of the wrong type (graphql-response+json)', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 'x' } }), headers: { accept: 'application/graphql-response+json' }, caller: 'timesheet', own: true },
  { name: 'depth limit', body: q(DEEP), caller: 'developer', own: true },
  { name: 'alias limit', body: q(ALIASES), caller: 'developer', own: true },
  { name: 'token limit', body: q(TOKENS), caller: 'developer', own: true },
  { name: 'token limit (graphql-response+json)', body: q(TOKENS), headers: { accept: 'application/graphql-response+json' }, caller: 'developer', own: true },
  { name: 'directive limit', body: q(DIRECTIVES), caller: 'developer', own: true },
  { name: 'cost limit from a variable', body: q(EXPENSIVE, { variables: { n: 100000 } }), caller: 'developer', own: true },
  { name: 'cost limit (graphql-response+json)', body: q(EXPENSIVE, { variables: { n: 100000 } }), headers: { accept: 'application/graphql-response+json' }, caller: 'developer', own: true },
  { name: 'same document under the cost limit', body: q(EXPENSIVE, { variables: { n: 3 } }), caller: 'developer', own: true },
  { name: 'introspection', body: q('{ __schema { queryType { name } } }'), caller: 'developer', own: true },
  { name: 'accept */*', body: q(EVENTS), headers: { accept: '*/*' }, caller: 'developer', own: true },
  { name: 'accept application/json', body: q(EVENTS), headers: { accept: 'application/json' }, caller: 'developer', own: true },
  { name: 'accept graphql-response+json', body: q(EVENTS), headers: { accept: 'application/graphql-response+json' }, caller: 'developer', own: true },
  { name: 'accept both, json preferred', body: q('{ nope }'), headers: { accept: 'application/json, application/graphql-response+json;q=0.9' }, caller: 'developer', own: true },
  { name: 'accept both, graphql-response+json first', body: q('{ nope }'), headers: { accept: 'application/graphql-response+json, application/json' }, caller: 'developer', own: true },
  { name: 'accept with a UTF-8 charset', body: q(EVENTS), headers: { accept: 'application/json; charset=utf-8' }, caller: 'developer', own: true },
  { name: 'accept application/*', body: q(EVENTS), headers: { accept: 'application/*' }, caller: 'developer', own: true },
  { name: 'accept event stream or json', body: q(EVENTS), headers: { accept: 'text/event-stream, application/json' }, caller: 'developer', own: true },
  { name: 'content type graphql+json', body: q(EVENTS), headers: { 'content-type': 'application/graphql+json' }, caller: 'developer', own: true },
  { name: 'content type with charset', body: q(EVENTS), headers: { 'content-type': 'application/json; charset=utf-8' }, caller: 'developer', own: true },
  { name: 'GET query', method: 'GET', search: get({ query: EVENTS }), caller: 'developer', own: true },
  { name: 'GET with variables and operation name', method: 'GET', search: get({ query: TIMESHEET_BY_VARIABLE, variables: json({ id: 9001 }), operationName: 'One' }), caller: 'timesheet', own: true },
  { name: 'GET with extensions', method: 'GET', search: get({ query: EVENTS, extensions: json({ a: 1 }) }), caller: 'developer', own: true },
  { name: 'GET mutation', method: 'GET', search: get({ query: CREATE, variables: json(CREATE_INPUT) }), caller: 'developer', own: true },
  { name: 'GET syntax error', method: 'GET', search: get({ query: '{' }), caller: 'developer', own: true },
  { name: 'GET unknown operation name', method: 'GET', search: get({ query: TWO_OPERATIONS, operationName: 'C' }), caller: 'developer', own: true },
  { name: 'GET graphql-response+json', method: 'GET', search: get({ query: '{ nope }' }), headers: { accept: 'application/graphql-response+json' }, caller: 'developer', own: true },
  { name: 'batch', body: json([{ query: EVENTS }, { query: TIMESHEET }]), caller: 'developer', own: true },
  { name: 'batch with errors', body: json([{ query: '{ nope }' }, { query: '{' }, { query: TIMESHEET_BY_VARIABLE, variables: { id: 'x' } }]), caller: 'timesheet', own: true },
  { name: 'batch with errors (graphql-response+json)', body: json([{ query: '{ nope }' }, { query: EVENTS }]), headers: { accept: 'application/graphql-response+json' }, caller: 'developer', own: true },
  { name: 'batch with a mutation', body: json([{ query: CREATE, variables: CREATE_INPUT }, { query: EVENTS }]), caller: 'developer', own: true },
  // Where graphql-jit and graphql-js part ways (src/graphql/compiled-caller-queries.ts): callers'
  // queries run compiled here and on graphql-js in the reference, so each must answer the same.
  { name: 'the same read again (compiled document reused)', body: q(TIMESHEET), caller: 'timesheet', own: true },
  { name: 'Int variable out of range', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 2 ** 31 } }), caller: 'timesheet', own: true },
  { name: 'Int variable given a fraction', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 1.5 } }), caller: 'timesheet', own: true },
  { name: 'Int variable given a numeric string', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: '9001' } }), caller: 'timesheet', own: true },
  { name: 'Int variable given a whole float', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 9001.0 } }), caller: 'timesheet', own: true },
  { name: 'non-null variable given null', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: null } }), caller: 'timesheet', own: true },
  { name: 'variables that are not declared', body: q(TIMESHEET_BY_VARIABLE, { variables: { id: 9001, other: { a: 1 } } }), caller: 'timesheet', own: true },
  { name: 'nullable variable absent', body: q(STAFFS), caller: 'developer', own: true },
  { name: 'nullable variable null', body: q(STAFFS, { variables: { n: null } }), caller: 'developer', own: true },
  { name: 'variable with a default, absent', body: q('query Page($n: Int = 1) { staffs(first: $n) { edges { node { employeeId } } } }'), caller: 'developer', own: true },
  { name: 'variable with a default, null', body: q('query Page($n: Int = 1) { staffs(first: $n) { edges { node { employeeId } } } }', { variables: { n: null } }), caller: 'developer', own: true },
  { name: 'absent and null argument told apart', body: q(LICENSES), caller: 'developer', own: true },
  { name: 'absent and null argument told apart (null)', body: q(LICENSES, { variables: { l: null } }), caller: 'developer', own: true },
  { name: 'absent and null argument told apart (value)', body: q(LICENSES, { variables: { l: 'NSW-0002' } }), caller: 'developer', own: true },
  { name: 'variable absent inside an input object', body: q(FILTER_FIELDS, { variables: { s: 'S-1001' } }), caller: 'developer', own: true },
  { name: 'variable null inside an input object', body: q(FILTER_FIELDS, { variables: { s: null, e: null } }), caller: 'developer', own: true },
  { name: 'input object literal', body: q('{ staffs(first: 2, filter: { staffId: "S-1001" }) { edges { node { employeeId } } } }'), caller: 'developer', own: true },
  { name: 'input object variable with a field left out', body: q('query F($f: StaffFilter) { staffs(first: 2, filter: $f) { edges { node { employeeId } } } }', { variables: { f: { staffId: 'S-1001' } } }), caller: 'developer', own: true },
  { name: 'input object variable with an unknown field', body: q('query F($f: StaffFilter) { staffs(first: 2, filter: $f) { edges { node { employeeId } } } }', { variables: { f: { nope: 1 } } }), caller: 'developer', own: true },
  { name: 'custom scalar variable', body: q(FROM, { variables: { from: '2026-11-01T00:00:00+10:00' } }), caller: 'timesheet', own: true },
  { name: 'custom scalar variable refused', body: q(FROM, { variables: { from: 'not a date' } }), caller: 'timesheet', own: true },
  { name: 'custom scalar variable of the wrong kind', body: q(FROM, { variables: { from: 20261101 } }), caller: 'timesheet', own: true },
  { name: 'custom scalar literal', body: q('{ timesheets(first: 2, filter: { from: "2026-11-01T00:00:00Z" }) { edges { node { timesheetId } } } }'), caller: 'timesheet', own: true },
  { name: 'ID variable given a number', body: q(NODE, { variables: { id: 5 } }), caller: 'developer', own: true },
  { name: 'ID variable given a float', body: q(NODE, { variables: { id: 5.5 } }), caller: 'developer', own: true },
  { name: 'abstract type resolved', body: q(NODE, { variables: { id: STAFF_ID } }), caller: 'developer', own: true },
  { name: 'abstract type, another company', body: q(NODE, { variables: { id: Buffer.from('Staff:2001').toString('base64') } }), caller: 'developer', own: true },
  { name: 'list variable given one value', body: q(NODES, { variables: { ids: STAFF_ID } }), caller: 'developer', own: true },
  { name: 'list variable with a null item', body: q(NODES, { variables: { ids: [STAFF_ID, null] } }), caller: 'developer', own: true },
  { name: 'list literal holding a variable', body: q('query N($id: ID!) { nodes(ids: [$id, "x"]) { id } }', { variables: { id: STAFF_ID } }), caller: 'developer', own: true },
  { name: '@include with a variable', body: q(INCLUDE, { variables: { with: false } }), caller: 'developer', own: true },
  { name: '@include with a variable (true)', body: q(INCLUDE, { variables: { with: true } }), caller: 'developer', own: true },
  { name: '@skip with a nullable variable given null', body: q('query S($skip: Boolean = false) { webhookEvents { event @skip(if: $skip) eventType } }', { variables: { skip: null } }), caller: 'developer', own: true },
  { name: '@skip with a nullable variable absent', body: q('query S($skip: Boolean = true) { webhookEvents { event @skip(if: $skip) eventType } }'), caller: 'developer', own: true },
  { name: '@skip and @include literals', body: q('{ webhookEvents { event @skip(if: true) eventType @include(if: false) } __typename @include(if: true) }'), caller: 'developer', own: true },
  { name: 'resolver errors under aliases and a fragment', body: q('{ a: timesheet(timesheetId: 1) { ...T } b: timesheet(timesheetId: 2) { ...T } c: timesheet(timesheetId: 9001) { ...T } } fragment T on Timesheet { timesheetId }'), caller: 'timesheet', own: true },
  { name: 'resolver error on a field asked for twice', body: q('{ timesheet(timesheetId: 1) { timesheetId }\n  timesheet(timesheetId: 1) { __typename } }'), caller: 'timesheet', own: true },
  { name: 'resolver error on a field outside the key type, beside data', body: q('{ webhookEvents { event } timesheet(timesheetId: 9001) { timesheetId } }'), caller: 'developer', own: true },
  { name: 'aliases, inline fragments and __typename', body: q('query { t: timesheet(timesheetId: 9001) { ... on Timesheet { id: timesheetId } __typename ...F } } fragment F on Timesheet { timesheetId }'), caller: 'timesheet', own: true },
  { name: 'introspection of one type', body: q('{ __type(name: "Staff") { name fields { name } } }'), caller: 'developer', own: true },
  { name: 'typename only', body: q('{ __typename }'), caller: 'developer', own: true },
  { name: 'query beside a mutation, the query chosen', body: q(`query R { webhookEvents { event } } ${CREATE.replace('mutation (', 'mutation W(')}`, { operationName: 'R' }), caller: 'developer', own: true },
  { name: 'query over GET, twice compiled document', method: 'GET', search: get({ query: TIMESHEET_BY_VARIABLE, variables: json({ id: 9002 }) }), caller: 'timesheet', own: true },
  { name: 'batch at the limit', body: json(Array.from({ length: 10 }, () => ({ query: '{ __typename }' }))), caller: 'developer', own: true },

  // What yoga answers: malformed requests, other media types and methods, streams.
  { name: 'batch over the limit', body: json(Array.from({ length: 11 }, () => ({ query: '{ __typename }' }))), caller: 'developer', own: false },
  { name: 'empty batch', body: '[]', caller: 'developer', own: false },
  { name: 'batch with a non-object', body: json([{ query: EVENTS }, 1]), caller: 'developer', own: false },
  { name: 'batch with a bad item', body: json([{ query: EVENTS }, { query: EVENTS, variables: 'x' }]), caller: 'developer', own: false },
  { name: 'malformed JSON', body: '{"query": ', caller: 'developer', own: false },
  { name: 'empty body', body: '', caller: 'developer', own: false },
  { name: 'body is a string', body: '"{ __typename }"', caller: 'developer', own: false },
  { name: 'body is a number', body: '42', caller: 'developer', own: false },
  { name: 'body is null', body: 'null', caller: 'developer', own: false },
  { name: 'no query', body: '{}', caller: 'developer', own: false },
  { name: 'query is a number', body: json({ query: 1 }), caller: 'developer', own: false },
  { name: 'query is null', body: json({ query: null }), caller: 'developer', own: false },
  { name: 'variables is a string', body: q(EVENTS, { variables: '{}' }), caller: 'developer', own: false },
  { name: 'variables is an array', body: q(EVENTS, { variables: [] }), caller: 'developer', own: false },
  { name: 'extensions is a string', body: q(EVENTS, { extensions: 'x' }), caller: 'developer', own: false },
  { name: 'extensions is an array', body: q(EVENTS, { extensions: [1] }), caller: 'developer', own: false },
  { name: 'extensions is a number', body: q(EVENTS, { extensions: 1 }), caller: 'developer', own: false },
  { name: 'operation name is a number', body: q(TWO_OPERATIONS, { operationName: 1 }), caller: 'developer', own: false },
  { name: 'operation name is an object', body: q(TWO_OPERATIONS, { operationName: {} }), caller: 'developer', own: false },
  { name: 'unknown parameter', body: q(EVENTS, { foo: 1 }), caller: 'developer', own: false },
  { name: 'unknown parameter that is null', body: q(EVENTS, { foo: null }), caller: 'developer', own: false },
  { name: 'GET without a query', method: 'GET', search: get({ variables: '{}' }), caller: 'developer', own: false },
  { name: 'GET without parameters', method: 'GET', caller: 'developer', own: false },
  { name: 'GET with malformed variables', method: 'GET', search: get({ query: EVENTS, variables: '{' }), caller: 'developer', own: false },
  { name: 'GET with variables that are not an object', method: 'GET', search: get({ query: EVENTS, variables: '[1]' }), caller: 'developer', own: false },
  { name: 'GET with extensions that are not an object', method: 'GET', search: get({ query: EVENTS, extensions: '"x"' }), caller: 'developer', own: false },
  { name: 'GET for a browser page', method: 'GET', headers: { accept: 'text/html' }, caller: 'none', own: false },
  { name: 'accept text/plain', body: q(EVENTS), headers: { accept: 'text/plain' }, caller: 'developer', own: false },
  { name: 'accept a non-UTF-8 charset', body: q(EVENTS), headers: { accept: 'application/json; charset=iso-8859-1' }, caller: 'developer', own: false },
  { name: 'accept multipart only', body: q(EVENTS), headers: { accept: 'multipart/mixed' }, caller: 'developer', own: false },
  { name: 'accept event stream only', body: q(EVENTS), headers: { accept: 'text/event-stream' }, caller: 'developer', own: false },
  { name: 'content type in capitals', body: q(EVENTS), headers: { 'content-type': 'Application/JSON' }, caller: 'developer', own: false },
  { name: 'content type text/plain', body: q(EVENTS), headers: { 'content-type': 'text/plain' }, caller: 'developer', own: false },
  { name: 'content type form', body: 'query=%7B__typename%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' }, caller: 'developer', own: false },
  { name: 'content type with another charset', body: q(EVENTS), headers: { 'content-type': 'application/json; charset=latin1' }, caller: 'developer', own: false },
  { name: 'PUT', method: 'PUT', body: q(EVENTS), caller: 'developer', own: false },
  { name: 'DELETE', method: 'DELETE', body: q(EVENTS), caller: 'developer', own: false },
  { name: 'subscription answered as JSON', body: q('subscription { events { event } }'), caller: 'developer', own: false },
  { name: 'subscription spelled with JSON escapes', body: '{"query":"\\u0073ubscription { events { event } }"}', caller: 'developer', own: false },
  { name: 'subscription that does not validate', body: q('subscription { __typename }'), caller: 'developer', own: false },
  { name: 'subscription beside the query that runs', body: q('subscription S { events { event } } query Q { __typename }', { operationName: 'Q' }), caller: 'developer', own: false },

  // Refused before either answers.
  { name: 'no credentials', body: q(EVENTS), caller: 'none', own: false },
  { name: 'invalid token', body: q(EVENTS), caller: 'bad-token', own: false },
  { name: 'no subscription key', body: q(EVENTS), caller: 'no-subscription-key', own: false },
];

interface Gateway {
  t: TestApp;
  tokens: Record<'developer' | 'timesheet', string>;
}

async function gateway(graphqlTransport: 'own' | 'yoga'): Promise<Gateway> {
  // yoga alone with the standard executor is the reference: the gateway answers with its own
  // transport and, unless GRAPHQL_EXECUTOR=standard, callers' queries compiled.
  const env: Record<string, string> = graphqlTransport === 'yoga' ? { GRAPHQL_EXECUTOR: 'standard' } : {};
  // Every query compiled the first time it runs, so each request of the corpus runs compiled.
  const t = await startTestApp({ now: () => CLOCK, graphqlTransport, env, compileAfter: 1 });
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

describe('/graphql: its transport answers as yoga does', () => {
  let own: Gateway;
  let yoga: Gateway;

  beforeAll(async () => {
    own = await gateway('own');
    yoga = await gateway('yoga');
  });
  afterAll(async () => {
    await own?.t.close();
    await yoga?.t.close();
  });

  it('answers every request of the corpus as yoga alone does', async () => {
    const differences: string[] = [];
    for (const [index, c] of CORPUS.entries()) {
      const mine = await send(own, c, index);
      const theirs = await send(yoga, c, index);
      try {
        expect(mine).toEqual(theirs);
      } catch {
        differences.push(`${c.name}:\n  transport ${JSON.stringify(mine)}\n  yoga      ${JSON.stringify(theirs)}`);
      }
    }
    expect(differences, differences.join('\n')).toEqual([]);
    // The corpus ran callers' queries compiled, and ran again on graphql-js those that failed.
    const counts = own.t.app.compiledDocuments?.counts;
    if (own.t.app.config.graphqlExecutor === 'compiled') {
      expect(counts?.compiled).toBeGreaterThan(20);
      expect(counts?.retried).toBeGreaterThan(5);
      // A text sent again, once answered without an error, is known: it runs in the known
      // queries' lane, on the document already compiled (src/graphql/known-query-lane.ts).
      const held = own.t.app.compiledDocuments?.size;
      const compiled = counts?.compiled ?? 0;
      const answered = own.t.app.knownQueries?.counts.answered ?? 0;
      // Both gateways get it, so their rate-limit counters stay level for the tests below.
      expect(await send(own, CORPUS[0]!, 0)).toEqual(await send(yoga, CORPUS[0]!, 0));
      expect(own.t.app.compiledDocuments?.size).toBe(held);
      expect(counts?.compiled).toBe(compiled);
      expect(own.t.app.knownQueries?.counts.answered).toBe(answered + 1);
    } else {
      expect(counts).toBeUndefined();
      expect(own.t.app.knownQueries).toBeUndefined();
    }
  });

  it('answers the corpus sent again, known queries through their lane, as yoga alone does', async () => {
    const known = own.t.app.knownQueries;
    const before = { ...known?.counts };
    const differences: string[] = [];
    // Twice more: every query the first pass answered without an error is known by now.
    for (const round of [1, 2]) {
      for (const [index, c] of CORPUS.entries()) {
        const mine = await send(own, c, 2000 * round + index);
        const theirs = await send(yoga, c, 2000 * round + index);
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) differences.push(`${c.name} (round ${round}):\n  transport ${json(mine)}\n  yoga      ${json(theirs)}`);
      }
    }
    expect(differences, differences.join('\n')).toEqual([]);
    if (own.t.app.config.graphqlExecutor === 'compiled') {
      // Reads, GETs, batch items and operations chosen by name ran in the lane; the same texts
      // with refused variables or over the cost limit were handed back to yoga's stage.
      expect((known?.counts.answered ?? 0) - (before.answered ?? 0)).toBeGreaterThan(40);
      expect((known?.counts.handedBack ?? 0) - (before.handedBack ?? 0)).toBeGreaterThan(10);
    }
  });

  it('answers bodies carrying a known text, however the rest is written, as yoga alone does', async () => {
    // Made known first (the lane's bodies are told by the text's bytes, http-transport.ts).
    // A comment carries quotes and backslashes, so the text's JSON string has escaped quotes, and ends in a backslash.
    const QUOTED = 'query Q($id: Int!) { timesheet(timesheetId: $id) { timesheetId } } # "quoted", \\" and a backslash \\';
    const texts = [TIMESHEET_BY_VARIABLE, QUOTED];
    for (const [i, text] of texts.entries()) {
      const c: Case = { name: 'made known', body: q(text, { variables: { id: 9001 } }), caller: 'timesheet', own: true };
      expect(await send(own, c, 4000 + i)).toEqual(await send(yoga, c, 4000 + i));
      if (own.t.app.config.graphqlExecutor === 'compiled') expect(own.t.app.knownQueries?.find(text, undefined)).toBeDefined();
    }
    const answered = own.t.app.knownQueries?.counts.answered ?? 0;
    // How many bodies had a known text told by its bytes.
    let told = 0;
    const known = own.t.app.knownQueries;
    const textAt = known?.textAt.bind(known);
    if (known && textAt) {
      known.textAt = (body, start) => {
        const found = textAt(body, start);
        if (found) told++;
        return found;
      };
    }
    const bodies = texts.flatMap((text) => {
      const t = `{"query":${json(text)}`;
      return [
        `${t}}`,
        `${t},"variables":{"id":9001}}`,
        `${t}, "variables" : {"id":9002} , "operationName":"${text === QUOTED ? 'Q' : 'One'}" }`,
        `${t},"operationName":null,"variables":{"id":9001},"extensions":{}}`,
        `${t},"variables":{"id":"x"}}`,
        `${t},"variables":{"id":9001},"query":"{ __typename }"}`,
        `${t},"variables":{"id":9001},"query":${json(text)}}`,
        `${t},"foo":1}`,
        `${t},"__proto__":{"variables":{"id":9001}}}`,
        `${t},}`,
        `${t}, }`,
        `${t},`,
        `${t}`,
        `${t},"variables":`,
        `${t}} `,
        `${t}}x`,
        `${t} ,"variables":{"id":9001}}`,
        `${t}}{"query":"{ __typename }"}`,
        `{"query":${json(text).replace(' ', '\\u0020')},"variables":{"id":9001}}`,
      ];
    });
    const differences: string[] = [];
    for (const [i, body] of bodies.entries()) {
      const c: Case = { name: body.slice(0, 60), body, caller: 'timesheet', own: true };
      const mine = await send(own, c, 4100 + i);
      const theirs = await send(yoga, c, 4100 + i);
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) differences.push(`${body}:\n  transport ${json(mine)}\n  yoga      ${json(theirs)}`);
    }
    if (known && textAt) known.textAt = textAt;
    expect(differences, differences.join('\n')).toEqual([]);
    if (own.t.app.config.graphqlExecutor === 'compiled') {
      // Every body but the differently escaped ones starts with a known text's bytes; the well-formed ones ran in the lane.
      expect(told).toBe(bodies.length - texts.length);
      expect((own.t.app.knownQueries?.counts.answered ?? 0) - answered).toBeGreaterThanOrEqual(8);
    }
  });

  it('hands a known query back when it fails, so yoga words and masks the failure', async () => {
    const CURSORS = '{ staffs(first: 2) { edges { cursor node { employeeId } } } }';
    const c: Case = { name: 'known, then failing', body: q(CURSORS), own: true };
    // Known first: answered without an error on both gateways.
    expect(await send(own, c, 3000)).toEqual(await send(yoga, c, 3000));
    const known = own.t.app.knownQueries;
    if (own.t.app.config.graphqlExecutor === 'compiled') expect(known?.find(CURSORS, undefined)).toBeDefined();
    const originals = [own, yoga].map((g) => g.t.app.services.cursors.encode);
    for (const g of [own, yoga]) {
      g.t.app.services.cursors.encode = () => {
        throw new Error('no such column: secret_detail');
      };
    }
    const handedBack = known?.counts.handedBack ?? 0;
    try {
      const mine = await send(own, c, 3001);
      expect(mine).toEqual(await send(yoga, c, 3001));
      expect(mine.body).toContain('INTERNAL_SERVER_ERROR');
      expect(mine.body).not.toContain('secret_detail');
      if (known) expect(known.counts.handedBack).toBe(handedBack + 1);
    } finally {
      [own, yoga].forEach((g, i) => (g.t.app.services.cursors.encode = originals[i]!));
    }
  });

  it("runs a known query with each caller's own scope", async () => {
    const STAFF = 'query S($id: Int!) { staff(employeeId: $id) { employeeId firstName } }';
    const mine = await own.t.token({ type: 'developer', companyId: 1 });
    const other = await own.t.token({ type: 'developer', companyId: 2 });
    const ask = async (token: string, id: number) => {
      const res = await fetch(`${own.t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
        body: q(STAFF, { variables: { id } }),
      });
      return (await res.json()) as { data?: { staff: { employeeId: number } | null }; errors?: { extensions?: { code?: string } }[] };
    };
    // Company 1's staff member 1001, asked until the text is known.
    for (let i = 0; i < 3; i++) expect((await ask(mine, 1001)).data?.staff?.employeeId).toBe(1001);
    if (own.t.app.config.graphqlExecutor === 'compiled') expect(own.t.app.knownQueries?.find(STAFF, undefined)).toBeDefined();
    // Another company's caller, same text: never company 1's record.
    const refused = await ask(other, 1001);
    expect(refused.data?.staff ?? null).toBeNull();
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it.each([
    ['an internal failure, masked and tagged with the request id', () => new Error('no such column: secret_detail')],
    ['a busy database, as 503', () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
  ])('answers %s as yoga alone does', async (_name, failure) => {
    const CURSORS = '{ staffs(first: 2) { edges { cursor node { employeeId } } } }';
    const cases: Case[] = [
      { name: 'failing resolver', body: q(CURSORS), own: true },
      { name: 'failing resolver (graphql-response+json)', body: q(CURSORS), headers: { accept: 'application/graphql-response+json' }, own: true },
      { name: 'failing resolver in a batch', body: json([{ query: CURSORS }, { query: EVENTS }]), own: true },
      { name: 'failing resolver over GET', method: 'GET', search: get({ query: CURSORS }), own: true },
    ];
    const originals = [own, yoga].map((g) => g.t.app.services.cursors.encode);
    for (const g of [own, yoga]) {
      g.t.app.services.cursors.encode = () => {
        throw failure();
      };
    }
    try {
      for (const [index, c] of cases.entries()) {
        const mine = await send(own, c, 900 + index);
        expect(mine, c.name).toEqual(await send(yoga, c, 900 + index));
        expect(mine.body).not.toContain('secret_detail');
      }
    } finally {
      [own, yoga].forEach((g, i) => (g.t.app.services.cursors.encode = originals[i]!));
    }
  });

  it('answers random documents, variables and bodies as yoga alone does', async () => {
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
          const c: Case = { name: 'random', caller, own: false, ...(accept ? { headers: { accept } } : {}) };
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
          const mine = await send(own, c, index);
          const theirs = await send(yoga, c, index);
          if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
            differences.push(`${json(c)}:\n  transport ${json(mine)}\n  yoga      ${json(theirs)}`);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(differences, differences.slice(0, 5).join('\n')).toEqual([]);
  }, 120_000);

  describe('which requests the transport takes', () => {
    let server: Server;
    let base: string;
    let principals: Record<'developer' | 'timesheet', Principal>;

    beforeAll(async () => {
      const key = async (keyType: 'developer' | 'timesheet'): Promise<Principal> => {
        const { id } = await own.t.key({ type: keyType, companyId: 1 });
        return { keyId: id, keyType, companyId: 1, customerIds: [], siteIds: [] };
      };
      principals = { developer: await key('developer'), timesheet: await key('timesheet') };
      const transport = graphqlTransport(own.t.app.yoga, { batchLimit: own.t.app.config.limits.graphql.batchLimit });
      // The transport alone, behind no authentication: 599 marks a request it leaves to yoga.
      server = createServer((req, res) => {
        void (async () => {
          const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readUtf8Body(req, 1 << 20).catch(() => Buffer.alloc(0));
          const caller = req.headers['x-caller'] === 'timesheet' ? 'timesheet' : 'developer';
          const took = await transport(req, res, { principal: principals[caller] }, body);
          if (!took) res.writeHead(599).end();
        })();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('takes the well-formed JSON requests and leaves the rest to yoga', async () => {
      const wrong: string[] = [];
      for (const c of CORPUS) {
        // Credentials are checked, and live streams admitted, before the transport is reached.
        if (c.caller === 'none' || c.caller === 'bad-token' || c.caller === 'no-subscription-key' || c.name.startsWith('subscription')) continue;
        const headers: Record<string, string> = { 'x-caller': c.caller ?? 'developer' };
        if (c.body !== undefined) headers['content-type'] = 'application/json';
        Object.assign(headers, c.headers);
        const res = await fetch(`${base}/graphql${c.search ?? ''}`, { method: c.method ?? (c.body === undefined ? 'GET' : 'POST'), headers, body: c.body });
        await res.arrayBuffer();
        if ((res.status !== 599) !== c.own) wrong.push(`${c.name}: ${c.own ? 'left to yoga' : 'taken'}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
    });
  });
});
