import type { IncomingMessage, ServerResponse } from 'node:http';
import { migrationsCurrent, pingDatabase, probeWrite, type Db } from '../shared/db/knex.js';
import { databaseUnavailability } from '../shared/db/unavailable.js';
import { metricsText, registry } from '../shared/observability/metrics.js';
import { sendJson } from '../shared/http/respond.js';

/**
 * Health, readiness and metrics, by path: outside auth, for load balancers and scrapers. They
 * reveal nothing about tenants; /metrics carries route patterns and counts only.
 */
export function operabilityEndpoints(deps: { db: Db; draining: () => boolean }): Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>> {
  return {
    '/healthz': async (req, res) => {
      req.resume();
      sendJson(res, 200, { status: 'ok' });
    },
    '/readyz': async (req, res) => {
      req.resume();
      // A draining instance says "not ready" so the balancer stops sending it new work.
      if (deps.draining()) return sendJson(res, 503, { status: 'draining', database: 'unknown', migrations: 'unknown' });
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
    },
    '/metrics': async (req, res) => {
      req.resume();
      const text = await metricsText();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text);
    },
  };
}
