import Database from 'better-sqlite3';
import { print } from 'graphql';
import { StaffLicensesDocument, TimesheetDocument } from '../src/generated/operations.js';
import { DEVELOPER_API_KEY, HOT_STAFF_ID, SUB_KEY, TIMESHEET_API_KEY, TIMESHEET_KEY_CUSTOMERS } from './dataset.js';
import type { LoadTarget } from './load.js';
import type { ServerProcess } from './servers.js';

/** One measured thing: a server and the requests sent to it. */
export interface Scenario {
  id: string;
  label: string;
  server: ServerProcess;
  target: LoadTarget;
  /** Overrides for a scenario whose requests are slow: connections, least seconds per run. */
  connections?: number;
  minSeconds?: number;
}

export interface Servers {
  gateway: ServerProcess;
  gateway1m: ServerProcess;
  raw: ServerProcess;
  peer: ServerProcess;
  /** fastify + mercurius with graphql-jit over the gateway's schema, context and database layer. */
  mercurius: ServerProcess;
  /** fastify + mercurius with graphql-jit over an SDL schema, a plain resolver and a prepared statement. */
  mercuriusPlain: ServerProcess;
}

export interface ScenarioGroups {
  timesheet: Scenario[];
  licensePage: Scenario[];
  scale: Scenario[];
  timesheetIdsInScope: number;
  /** The license page's path and the raw baseline's body, for other backends to match. */
  licensePageExpected: { path: string; text: string };
}

export const LICENSE_PAGE_SIZE = 50;
const TIMESHEET_QUERY = print(TimesheetDocument);
const LICENSES_QUERY = print(StaffLicensesDocument);

export async function call(base: string, path: string, init: { token: string; body?: string }): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${init.token}` };
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json';
  }
  const res = await fetch(base + path, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    body: init.body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, text: await res.text() };
}

export async function requestToken(gateway: ServerProcess, apiKey: string): Promise<string> {
  const res = await fetch(`${gateway.url}/api/external/token/request`, {
    method: 'POST',
    headers: { 'external-gh-apim-sub-key': SUB_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { data?: { accessToken?: string } };
  if (res.status !== 200 || !body.data?.accessToken) throw new Error(`token request failed with ${res.status}`);
  return body.data.accessToken;
}

export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`pre-load check failed: ${message}`);
}

function sample<T>(list: readonly T[], count: number, rand: () => number): T[] {
  const picked: T[] = [];
  for (let i = 0; i < count; i++) picked.push(list[Math.floor(rand() * list.length)]!);
  return picked;
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

function timesheetIds(file: string): { inScope: number[]; outOfScope: number[] } {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT t.timesheet_id AS id, c.company_id AS company, c.id AS customer
         FROM timesheets t JOIN sites si ON si.id = t.site_id JOIN customers c ON c.id = si.customer_id ORDER BY t.timesheet_id`,
      )
      .all() as { id: number; company: number; customer: number }[];
    const visible = (r: { company: number; customer: number }) => r.company === 1 && TIMESHEET_KEY_CUSTOMERS.includes(r.customer);
    return { inScope: rows.filter(visible).map((r) => r.id), outOfScope: rows.filter((r) => !visible(r)).map((r) => r.id) };
  } finally {
    db.close();
  }
}

/**
 * Fetches tokens, checks that every server answers the same reads with the same bytes (raw
 * and REST byte-identical; GraphQL gateway and peer identical; GraphQL data equal to the
 * REST data), and returns the load targets with the expected body of every request.
 */
export async function buildScenarios(servers: Servers, smallDb: string, log: (line: string) => void): Promise<ScenarioGroups> {
  const { gateway, gateway1m, raw, peer, mercurius, mercuriusPlain } = servers;
  const graphqlPeers = [mercuriusPlain, mercurius, peer];
  const timesheetToken = await requestToken(gateway, TIMESHEET_API_KEY);
  const developerToken = await requestToken(gateway, DEVELOPER_API_KEY);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

  // --- timesheets ------------------------------------------------------------------------
  const ids = timesheetIds(smallDb);
  check(ids.inScope.length > 1000, `only ${ids.inScope.length} timesheets in the key's scope`);
  const restPath = (id: number) => `/api/external/timesheets/${id}`;
  const rawBodies = await inBatches(ids.inScope, 64, async (id) => {
    const res = await call(raw.url, restPath(id), { token: timesheetToken });
    check(res.status === 200, `raw timesheet ${id} answered ${res.status}`);
    return res.text;
  });
  const restExpected = new Map(ids.inScope.map((id, i) => [id, rawBodies[i]!]));
  const graphqlBody = (id: number) => JSON.stringify({ query: TIMESHEET_QUERY, variables: { timesheetId: id } });
  const graphqlExpected = (id: number) => `{"data":{"timesheet":${JSON.stringify(JSON.parse(restExpected.get(id)!).data)}}}`;
  const sampled = sample(ids.inScope, 200, rand);
  for (const id of sampled) {
    const rest = await call(gateway.url, restPath(id), { token: timesheetToken });
    check(rest.status === 200 && rest.text === restExpected.get(id), `REST and raw bodies differ for timesheet ${id}:\n${rest.text}\n${restExpected.get(id)}`);
  }
  for (const id of sampled.slice(0, 50)) {
    for (const server of [gateway, ...graphqlPeers]) {
      const res = await call(server.url, '/graphql', { token: timesheetToken, body: graphqlBody(id) });
      check(res.status === 200 && res.text === graphqlExpected(id), `${server.name} GraphQL body for timesheet ${id} differs:\n${res.text}`);
    }
  }
  for (const id of sample(ids.outOfScope, 5, rand)) {
    const rest = await call(gateway.url, restPath(id), { token: timesheetToken });
    const bare = await call(raw.url, restPath(id), { token: timesheetToken });
    check(rest.status === 404 && bare.status === 404 && rest.text === bare.text, `out-of-scope timesheet ${id}: ${rest.status} ${rest.text} vs ${bare.status} ${bare.text}`);
  }
  log(`checks: ${sampled.length} timesheets byte-identical REST = raw, 50 GraphQL gateway = ${graphqlPeers.map((p) => p.name).join(' = ')} = REST data, out-of-scope 404s identical`);

  // Pre-built per-id requests, so the load generator only picks one.
  const inScope = ids.inScope;
  const pick = () => inScope[Math.floor(Math.random() * inScope.length)]!;
  const restPlans = new Map(inScope.map((id) => [id, { path: restPath(id), expected: restExpected.get(id)! }]));
  const graphqlPlans = new Map(inScope.map((id) => [id, { path: '/graphql', body: graphqlBody(id), expected: graphqlExpected(id) }]));
  const restTarget = (server: ServerProcess, token: string): LoadTarget => ({
    baseUrl: server.url,
    method: 'GET',
    headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` },
    next: () => restPlans.get(pick())!,
  });
  const graphqlTarget = (server: ServerProcess, token: string, next: LoadTarget['next']): LoadTarget => ({
    baseUrl: server.url,
    method: 'POST',
    headers: {
      'external-gh-apim-sub-key': SUB_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    next,
  });

  // --- license page ----------------------------------------------------------------------
  const pagePath = `/api/external/staffs/${HOT_STAFF_ID}/licenses?pageSize=${LICENSE_PAGE_SIZE}`;
  const pageRaw = await call(raw.url, pagePath, { token: developerToken });
  check(pageRaw.status === 200, `raw license page answered ${pageRaw.status}: ${pageRaw.text}`);
  const pageData = JSON.parse(pageRaw.text) as { count: number; nextPageParameter?: string; data: unknown };
  check(pageData.count === LICENSE_PAGE_SIZE && pageData.nextPageParameter !== undefined, 'the license page is not a full page with a next page');
  for (const server of [gateway, gateway1m]) {
    const res = await call(server.url, pagePath, { token: developerToken });
    check(res.status === 200 && res.text === pageRaw.text, `${server.name} license page differs from raw:\n${res.text.slice(0, 400)}\n${pageRaw.text.slice(0, 400)}`);
  }
  const pageGraphqlBody = JSON.stringify({ query: LICENSES_QUERY, variables: { employeeId: HOT_STAFF_ID, first: LICENSE_PAGE_SIZE } });
  const pageGraphql = await call(gateway.url, '/graphql', { token: developerToken, body: pageGraphqlBody });
  const pagePeer = await call(peer.url, '/graphql', { token: developerToken, body: pageGraphqlBody });
  check(pageGraphql.status === 200 && pageGraphql.text === pagePeer.text, 'GraphQL license page differs between gateway and peer');
  const connection = (JSON.parse(pageGraphql.text) as { data: { staff: { licenses: { edges: { node: unknown }[]; pageInfo: { endCursor: string } } } } }).data.staff.licenses;
  check(JSON.stringify(connection.edges.map((e) => e.node)) === JSON.stringify(pageData.data), 'GraphQL license nodes differ from the REST data');
  check(pageData.nextPageParameter === `after=${connection.pageInfo.endCursor}`, 'REST next page parameter is not the GraphQL end cursor');
  log(`checks: license page (${LICENSE_PAGE_SIZE} of staff ${HOT_STAFF_ID}) identical on raw, REST 10k, REST 1M; GraphQL gateway = peer = REST data`);

  const pagePlan = { path: pagePath, expected: pageRaw.text };
  const pageGraphqlPlan = { path: '/graphql', body: pageGraphqlBody, expected: pageGraphql.text };
  const restPageTarget = (server: ServerProcess): LoadTarget => ({
    baseUrl: server.url,
    method: 'GET',
    headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${developerToken}` },
    next: () => pagePlan,
  });

  return {
    timesheetIdsInScope: inScope.length,
    licensePageExpected: { path: pagePath, text: pageRaw.text },
    // Each pair a ratio compares runs back to back: REST beside raw, GraphQL beside both mercurius peers.
    timesheet: [
      { id: 'timesheet.rest', label: 'timesheet  REST gateway', server: gateway, target: restTarget(gateway, timesheetToken) },
      { id: 'timesheet.raw', label: 'timesheet  raw node:http', server: raw, target: restTarget(raw, timesheetToken) },
      { id: 'timesheet.mercuriusPlain', label: 'timesheet  GraphQL mercurius-plain', server: mercuriusPlain, target: graphqlTarget(mercuriusPlain, timesheetToken, () => graphqlPlans.get(pick())!) },
      { id: 'timesheet.graphql', label: 'timesheet  GraphQL gateway', server: gateway, target: graphqlTarget(gateway, timesheetToken, () => graphqlPlans.get(pick())!) },
      { id: 'timesheet.mercurius', label: 'timesheet  GraphQL mercurius same schema', server: mercurius, target: graphqlTarget(mercurius, timesheetToken, () => graphqlPlans.get(pick())!) },
      { id: 'timesheet.peer', label: 'timesheet  GraphQL vanilla yoga', server: peer, target: graphqlTarget(peer, timesheetToken, () => graphqlPlans.get(pick())!) },
    ],
    licensePage: [
      { id: 'licensePage.rest', label: 'licenses/50 REST gateway', server: gateway, target: restPageTarget(gateway) },
      { id: 'licensePage.graphql', label: 'licenses/50 GraphQL gateway', server: gateway, target: graphqlTarget(gateway, developerToken, () => pageGraphqlPlan) },
      { id: 'licensePage.raw', label: 'licenses/50 raw node:http', server: raw, target: restPageTarget(raw) },
      { id: 'licensePage.peer', label: 'licenses/50 GraphQL vanilla yoga', server: peer, target: graphqlTarget(peer, developerToken, () => pageGraphqlPlan) },
    ],
    scale: [
      { id: 'scale.10k', label: 'licenses/50 REST, 10k rows', server: gateway, target: restPageTarget(gateway) },
      { id: 'scale.1m', label: 'licenses/50 REST, 1M rows', server: gateway1m, target: restPageTarget(gateway1m) },
    ],
  };
}
