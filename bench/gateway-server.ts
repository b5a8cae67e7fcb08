import { createApp } from '../src/server/app.js';
import { loadConfig } from '../src/config.js';
import { argument, failChild, serveAsChild } from './child-ipc.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

/**
 * The gateway as shipped (createApp) over one data-set file; SQL is counted from knex
 * 'query' events on the request connection. The background webhook workers (dispatcher,
 * license scheduler, live relay) are not started: the bench measures the request path, and
 * the scheduler's start-up scan would write events into the cached data set (and, at 1M
 * licenses, stall the event loop for minutes — see bench/README.md). Request logs stay at the
 * shipped level (info); the parent discards the child's stdout.
 */
async function main(): Promise<void> {
  const file = argument('db');
  const config = loadConfig({
    DATABASE_URL: `sqlite:${file}`,
    SUBSCRIPTION_KEYS: SUB_KEY,
    JWT_SECRET,
    // The limiter still runs on every request; it just never says no to the load generator.
    RATE_LIMIT_PER_MINUTE: '10000000',
    TOKEN_RATE_LIMIT_PER_MINUTE: '10000000',
  });
  const app = await createApp(config);
  app.server.removeAllListeners('listening');
  let statements = 0;
  app.db.on('query', () => {
    statements++;
  });
  await serveAsChild(app.server, () => statements, () => app.close());
}

main().catch(failChild);
