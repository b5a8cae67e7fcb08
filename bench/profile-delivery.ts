import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderProfile, summarizeProfile } from './cpuprofile-summary.js';
import { ensureDataset } from './dataset.js';
import { runDelivery } from './delivery.js';

/**
 * `node bin/run-ts.js bench/profile-delivery.ts [--events 1000]` (after `npm run build`): the
 * delivery scenario with the dispatcher's gateway child under `node --cpu-prof`, summed per
 * function over the whole profile (start-up included) and divided by the deliveries made.
 * Profiles go to .tmp/bench-profiles/.
 */
const argv = process.argv.slice(2);
const eventsArg = argv.indexOf('--events');
const events = eventsArg >= 0 ? Number(argv[eventsArg + 1]) : 1000;

async function main(): Promise<void> {
  const dataset = await ensureDataset({ log: console.log });
  const dir = resolve('.tmp/bench-profiles', `delivery-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const result = await runDelivery(dataset.small, {
    events,
    latencyEvents: 20,
    log: console.log,
    gatewayExecArgv: ['--cpu-prof', '--cpu-prof-dir', dir],
  });
  const summaries = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => summarizeProfile(join(dir, f), 3600))
    .sort((a, b) => b.busyMicros - a.busyMicros);
  if (!summaries[0]) throw new Error('no profile written');
  console.log(renderProfile('delivery (dispatcher child)', summaries[0], result.deliveries + result.latencyDeliveries));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
