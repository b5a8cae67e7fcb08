import Database from 'better-sqlite3';
import { print } from 'graphql';
import { TimesheetsDocument } from '../src/generated/operations.js';
import { SUB_KEY, TIMESHEET_API_KEY, TIMESHEET_KEY_CUSTOMERS } from './dataset.js';
import type { LoadTarget } from './load.js';
import { call, check, requestToken, type Scenario } from './scenarios.js';
import type { ServerProcess } from './servers.js';

export const TIMESHEET_PAGE_SIZE = 50;
/** The filtered page: one site of the key's customers, scheduled to start in six months of 2026. */
const FILTER = { siteId: 11, from: '2026-03-01T00:00:00.000Z', to: '2026-09-01T00:00:00.000Z' };

/**
 * The first 50 ids the key may see, straight from the file: what the list must answer. The
 * 1M file's first 12,000 timesheets are the small file's, so the first page is the same there.
 */
function expectedIds(file: string, filtered: boolean): number[] {
  const db = new Database(file, { readonly: true });
  try {
    const where = filtered ? 'AND t.site_id = ? AND t.scheduled_start_time >= ? AND t.scheduled_start_time < ?' : '';
    const params = filtered ? [FILTER.siteId, FILTER.from, FILTER.to] : [];
    const rows = db
      .prepare(
        `SELECT t.timesheet_id AS id FROM timesheets t JOIN sites si ON si.id = t.site_id JOIN customers c ON c.id = si.customer_id
         WHERE c.company_id = 1 AND c.id IN (${TIMESHEET_KEY_CUSTOMERS.join(',')}) ${where}
         ORDER BY t.timesheet_id LIMIT ${TIMESHEET_PAGE_SIZE}`,
      )
      .all(...params) as { id: number }[];
    return rows.map((r) => r.id);
  } finally {
    db.close();
  }
}

interface ListBody {
  data: { timesheetId: number; siteApiId: number; scheduledStartTime: string }[];
  nextPageParameter?: string;
}

/**
 * The timesheet list's first page of 50, unfiltered and with siteId + from/to, on the small file
 * and on the 1M-timesheet file (REST), and the unfiltered page over GraphQL on the small file
 * (for SQL per page). Checks before loading: each page holds exactly the ids the file says, in
 * order, with a next page; both files answer byte for byte alike; GraphQL nodes = REST data.
 */
export async function buildTimesheetListScenarios(
  servers: { gateway: ServerProcess; gatewayTimesheets1m: ServerProcess },
  smallDb: string,
  log: (line: string) => void,
): Promise<Scenario[]> {
  const { gateway, gatewayTimesheets1m } = servers;
  const token = await requestToken(gateway, TIMESHEET_API_KEY);
  const headers = { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}` };
  const query = (filtered: boolean) =>
    new URLSearchParams({ ...(filtered ? { siteId: String(FILTER.siteId), from: FILTER.from, to: FILTER.to } : {}), pageSize: String(TIMESHEET_PAGE_SIZE) });
  const pages = new Map<boolean, { path: string; expected: string; data: ListBody['data'] }>();
  for (const filtered of [false, true]) {
    const path = `/api/external/timesheets?${query(filtered)}`;
    const ids = expectedIds(smallDb, filtered);
    check(ids.length === TIMESHEET_PAGE_SIZE, `only ${ids.length} timesheets match ${path} in the small file`);
    const small = await call(gateway.url, path, { token });
    const large = await call(gatewayTimesheets1m.url, path, { token });
    check(small.status === 200 && large.status === 200, `${path} answered ${small.status} / ${large.status}: ${small.text.slice(0, 300)} ${large.text.slice(0, 300)}`);
    check(small.text === large.text, `${path}: the 1M file's first page differs from the small file's`);
    const body = JSON.parse(small.text) as ListBody;
    check(JSON.stringify(body.data.map((t) => t.timesheetId)) === JSON.stringify(ids), `${path}: ids differ from the file's first ${TIMESHEET_PAGE_SIZE}`);
    check(body.nextPageParameter !== undefined, `${path}: no next page`);
    if (filtered) {
      check(
        body.data.every((t) => t.siteApiId === FILTER.siteId && t.scheduledStartTime >= FILTER.from && t.scheduledStartTime < FILTER.to),
        `${path}: an entry outside the filter`,
      );
    }
    pages.set(filtered, { path, expected: small.text, data: body.data });
  }
  const graphqlBody = JSON.stringify({ query: print(TimesheetsDocument), variables: { first: TIMESHEET_PAGE_SIZE } });
  const graphql = await call(gateway.url, '/graphql', { token, body: graphqlBody });
  check(graphql.status === 200, `GraphQL timesheet list answered ${graphql.status}: ${graphql.text.slice(0, 300)}`);
  const nodes = (JSON.parse(graphql.text) as { data: { timesheets: { edges: { node: unknown }[] } } }).data.timesheets.edges.map((e) => e.node);
  check(JSON.stringify(nodes) === JSON.stringify(pages.get(false)!.data), 'GraphQL timesheet list nodes differ from the REST data');
  log(`checks: timesheet list pages (unfiltered, site ${FILTER.siteId} + from/to) hold the file's first ${TIMESHEET_PAGE_SIZE} ids, identical on 12k and 1M; GraphQL nodes = REST data`);

  const rest = (server: ServerProcess, filtered: boolean): LoadTarget => {
    const plan = { path: pages.get(filtered)!.path, expected: pages.get(filtered)!.expected };
    return { baseUrl: server.url, method: 'GET', headers, next: () => plan };
  };
  const graphqlPlan = { path: '/graphql', body: graphqlBody, expected: graphql.text };
  // One connection: the ratio is of per-request latency, and a slow plan at 1M must not pile up
  // sixteen requests on two cores. The 1M runs last at least 10 s, so a slow page still answers.
  const slow = { connections: 1, minSeconds: 10 };
  const quick = { connections: 1 };
  return [
    { id: 'timesheetList.10k', label: 'timesheets/50 REST, 12k rows', server: gateway, target: rest(gateway, false), ...quick },
    { id: 'timesheetList.1m', label: 'timesheets/50 REST, 1M rows', server: gatewayTimesheets1m, target: rest(gatewayTimesheets1m, false), ...slow },
    { id: 'timesheetListFiltered.10k', label: 'timesheets/50 site+dates, 12k', server: gateway, target: rest(gateway, true), ...quick },
    { id: 'timesheetListFiltered.1m', label: 'timesheets/50 site+dates, 1M', server: gatewayTimesheets1m, target: rest(gatewayTimesheets1m, true), ...slow },
    {
      id: 'timesheetList.graphql',
      label: 'timesheets/50 GraphQL, 12k rows',
      server: gateway,
      target: { baseUrl: gateway.url, method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' }, next: () => graphqlPlan },
    },
  ];
}
