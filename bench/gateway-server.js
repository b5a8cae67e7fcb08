// The gateway as shipped: createApp from the compiled dist/ (what bin/shiftgate.js runs), under
// plain node, so its RSS and CPU are those of a deployment. Plain JavaScript for that reason.
import { loadConfig } from '../dist/config.js';
import { applyHeapGrowth, capYoungGeneration } from '../dist/server/heap.js';
import { argument, failChild, serveAsChild } from './child-ipc.js';

/**
 * Serves one data set with the configuration variables given as JSON in --config. SQL is
 * counted from knex 'query' events on the request connection. The background webhook workers
 * (dispatcher, license scheduler, live relay) start only with --dispatcher: the request
 * scenarios measure the request path, and the scheduler's start-up scan would write events into
 * the cached data set. Request logs stay at the shipped level (info); the parent discards stdout.
 */
async function main() {
  // GRAPHQL_EXECUTOR from the bench's environment, so both executors can be measured in turn.
  const executor = process.env.GRAPHQL_EXECUTOR ? { GRAPHQL_EXECUTOR: process.env.GRAPHQL_EXECUTOR } : {};
  const config = loadConfig({ ...JSON.parse(argument('config')), ...executor });
  // As `shiftgate serve` does: the heap settings before the gateway's modules load, the
  // young generation released once the app is built.
  applyHeapGrowth(config.heapGrowingPercent);
  const youngGeneration = capYoungGeneration(config.youngGenerationMB);
  const { createApp } = await import('../dist/server/app.js');
  const app = await createApp(config);
  youngGeneration.release();
  app.server.removeAllListeners('listening');
  let statements = 0;
  app.db.on('query', () => {
    statements++;
  });
  // Only the dispatcher: the delivery scenario needs it, and nothing else may write events.
  if (process.argv.includes('--dispatcher')) app.webhooks.dispatcher.start();
  await serveAsChild(app.server, () => statements, () => app.close());
}

main().catch(failChild);
