import type { IncomingMessage, ServerResponse } from 'node:http';
import { migrationsCurrent, pingDatabase, probeWrite, type Db } from '../shared/db/knex.js';
import { databaseUnavailability } from '../shared/db/unavailable.js';
import { METRICS_CONTENT_TYPE, metricsText } from '../shared/observability/metrics.js';
import { sendJson } from '../shared/http/respond.js';

export const OPERABILITY_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

/**
 * Health, readiness and metrics: outside auth, for load balancers and scrapers. They reveal
 * nothing about tenants; /metrics carries route patterns and counts only.
 */
export async function handleOperability(
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
  deps: { db: Db; draining: () => boolean },
): Promise<boolean> {
  if (pathname === '/healthz') {
    req.resume();
    sendJson(res, 200, { status: 'ok' });
    return true;
  }
  if (pathname === '/readyz') {
    req.resume();
    // A draining instance says "not ready" so the balancer stops sending it new work.
    if (deps.draining()) {
      sendJson(res, 503, { status: 'draining', database: 'unknown', migrations: 'unknown' });
      return true;
    }
    let database = 'ok';
    let migrations = 'unknown';
    try {
      await pingDatabase(deps.db);
      migrations = (await migrationsCurrent(deps.db)) ? 'current' : 'pending';
    } catch {
      database = 'unreachable';
    }
    if (database === 'ok') {
      // A lock held by another writer passes: the database can take writes once it is released.
      await probeWrite(deps.db).catch((error: unknown) => {
        if (databaseUnavailability(error) !== 'busy') database = 'unwritable';
      });
    }
    const ready = database === 'ok' && migrations === 'current';
    sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', database, migrations });
    return true;
  }
  if (pathname === '/metrics') {
    req.resume();
    const text = await metricsText();
    res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
    res.end(text);
    return true;
  }
  return false;
}
