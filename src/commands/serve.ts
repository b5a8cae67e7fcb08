import type { AddressInfo } from 'node:net';
import { createApp } from '../app.js';
import { RECOMMENDED_JWT_SECRET_LENGTH, type Config } from '../config.js';
import { activeDemoKeys, loadDemoDataIfEmpty } from '../db/demo-data.js';
import { SUBSCRIPTION_KEY_HEADER } from '../auth/authenticator.js';
import { parseCommandArgs, UsageError } from './args.js';

export async function serveCommand(args: string[], config: Config): Promise<number> {
  let port = config.port;
  try {
    const { values } = parseCommandArgs(args, { port: { type: 'string' } });
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!/^[0-9]{1,5}$/.test(values.port) || port > 65535) throw new UsageError('--port must be a number from 0 to 65535');
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`shiftgate: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const app = await createApp(config);
  if (await loadDemoDataIfEmpty(app.db)) {
    console.log('Empty database: loaded the demo data set.');
  }
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject);
    app.server.listen(port, resolve);
  });
  const actual = (app.server.address() as AddressInfo).port;
  const base = `http://localhost:${actual}`;
  const demoKeys = await activeDemoKeys(app.db);
  const lines = [
    `shiftgate is listening on ${base}`,
    `  GraphiQL:      ${base}/graphql`,
    `  REST base URL: ${base}/api`,
    `  Database:      ${config.database.client === 'sqlite' ? config.database.filename : 'PostgreSQL'}`,
  ];
  if (config.demoSubscriptionKey) {
    lines.push(`  Demo subscription key (${SUBSCRIPTION_KEY_HEADER}): ${config.subscriptionKeys[0]}`);
    lines.push('    (set SUBSCRIPTION_KEYS to replace it)');
  }
  if (demoKeys.developer) lines.push(`  Demo API key (KeyType=developer): ${demoKeys.developer}`);
  if (demoKeys.timesheet) lines.push(`  Demo API key (KeyType=timesheet): ${demoKeys.timesheet}`);
  console.log(lines.join('\n'));
  if (config.jwtSecret !== undefined && config.jwtSecret.length < RECOMMENDED_JWT_SECRET_LENGTH) {
    console.warn(`warning: JWT_SECRET is shorter than ${RECOMMENDED_JWT_SECRET_LENGTH} characters; use a longer random secret in production`);
  }

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
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return -1;
}
