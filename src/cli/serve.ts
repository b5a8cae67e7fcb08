import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { RECOMMENDED_JWT_SECRET_LENGTH, type Config } from '../config.js';
import { SUBSCRIPTION_KEY_HEADER } from '../auth/authenticator.js';
import { firstLineOf, StartupError } from '../shared/startup-error.js';
import { parseCommandArgs, UsageError } from './args.js';

export const SERVE_USAGE = `Usage: shiftgate serve [--port N] [--demo]

Migrates the database, then serves the REST API and GraphQL on PORT (see README, Configuration).

  --port N   listen on port N instead of PORT (0 picks a free port)
  --demo     load the demo data set and its public API keys into an empty database
             (what \`npm start\` runs; refused with NODE_ENV=production); while CORS_ORIGINS
             is unset, browsers on any origin may call the APIs`;

/** How long a failed start-up waits for the half-built app to close before giving up on it. */
const FAILED_START_CLOSE_MS = 3000;

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'address not available',
};

export async function serveCommand(args: string[], given: Config): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { port: { type: 'string' }, demo: { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got "${positionals[0]}")`);
  if (values.port !== undefined && (!/^[0-9]{1,5}$/.test(values.port) || Number(values.port) > 65535)) {
    throw new UsageError('--port must be a number from 0 to 65535');
  }
  const port = values.port === undefined ? given.port : Number(values.port);
  const demo = values.demo === true;
  // Public credentials must never guard a production deployment; checked before anything is opened.
  if (given.production && demo) throw new StartupError('--demo loads public demo credentials and is refused when NODE_ENV=production');
  if (given.production && given.subscriptionKeys.length === 0) throw new StartupError('SUBSCRIPTION_KEYS must be set when NODE_ENV=production');
  // A demo is explored from any browser page (API explorers, local front ends); CORS_ORIGINS still narrows it.
  const config = demo && given.corsOrigins === undefined ? { ...given, corsOrigins: ['*'] } : given;

  // The heap settings come first: the young generation's cap has to hold before the gateway's
  // modules load, or loading them alone grows it to V8's ceiling (docs/operations.md, "Memory").
  const { applyHeapGrowth, capYoungGeneration } = await import('../server/heap.js');
  applyHeapGrowth(config.heapGrowingPercent);
  const youngGeneration = capYoungGeneration(config.youngGenerationMB);
  // Loaded here, not at the top: the gateway's modules are slow to import, and usage errors and
  // refusals above should not wait for them.
  const { createApp } = await import('../server/app.js');
  const { activeDemoKeys, loadDemoDataIfEmpty } = await import('./demo-data.js');
  const app = await createApp(config);
  youngGeneration.release();
  let demoKeys: Awaited<ReturnType<typeof activeDemoKeys>>;
  try {
    if (demo && (await loadDemoDataIfEmpty(app.db))) {
      console.log('Empty database: loaded the demo data set.');
    }
    demoKeys = await activeDemoKeys(app.db);
    // GraphiQL's default query reads licenses, which the developer key may do.
    const demoDeveloperKey = demoKeys.find((key) => key.keyType === 'developer');
    if (demo && demoDeveloperKey) app.offerDemoKeyOnGraphiQL(demoDeveloperKey.apiKey);
    if (config.production && demoKeys.length > 0) {
      const which = demoKeys.map((key) => `${key.keyType} key ${key.id}`).join(', ');
      throw new StartupError(`a demo API key is active (${which}); revoke it with \`shiftgate keys revoke ID\` before starting with NODE_ENV=production`);
    }
    // The webhook workers start on 'listening', so nothing runs in the background until this succeeds.
    await once(app.server.listen(port), 'listening').catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      throw new StartupError(`cannot listen on port ${port}: ${LISTEN_ERRORS[String(code)] ?? firstLineOf(error)}`);
    });
  } catch (error) {
    // The half-built app gets a while to close; the start-up failure is reported either way.
    await Promise.race([app.close().catch(() => undefined), delay(FAILED_START_CLOSE_MS, undefined, { ref: false })]);
    throw error;
  }

  // Registered before the banner: a supervisor waiting for "listening" may signal at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    // app.close() is bounded by SHUTDOWN_TIMEOUT_MS for requests; this backstop covers a stuck
    // delivery or database close, so an orchestrator never has to escalate to SIGKILL.
    setTimeout(() => process.exit(1), config.limits.shutdownTimeoutMs + config.webhooks.timeoutMs + 5000).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => stop(signal));

  const base = `http://localhost:${(app.server.address() as AddressInfo).port}`;
  const lines = [
    `shiftgate is listening on ${base}`,
    `  GraphiQL:      ${base}/graphql`,
    `  REST base URL: ${base}/api`,
    `  API reference: ${base}/docs`,
    `  Database:      ${config.database.client === 'sqlite' ? config.database.filename : 'PostgreSQL'}`,
  ];
  if (config.demoSubscriptionKey) {
    lines.push(`  Demo subscription key (${SUBSCRIPTION_KEY_HEADER}): ${config.subscriptionKeys[0]}`);
    lines.push('    (set SUBSCRIPTION_KEYS to replace it)');
  }
  for (const key of demoKeys) lines.push(`  Demo API key (KeyType=${key.keyType}): ${key.apiKey}`);
  console.log(lines.join('\n'));
  if (config.demoSubscriptionKey) {
    console.warn('warning: SUBSCRIPTION_KEYS is not set, so the public demo subscription key is accepted; set it anywhere that is not a demo');
  }
  if (config.jwtSecret !== undefined && config.jwtSecret.length < RECOMMENDED_JWT_SECRET_LENGTH) {
    console.warn(`warning: JWT_SECRET is shorter than ${RECOMMENDED_JWT_SECRET_LENGTH} characters; use a longer random secret in production`);
  }

  return -1;
}
