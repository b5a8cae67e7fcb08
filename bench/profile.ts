import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderProfile, summarizeProfile } from './cpuprofile-summary.js';
import { ensureDataset } from './dataset.js';
import { measure } from './measure.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { ServerProcess } from './servers.js';

/**
 * `node bin/run-ts.js bench/profile.ts [--seconds 10]`: runs the gateway child under
 * `node --cpu-prof` for each profiled scenario (one fresh process each), loads only that
 * scenario, and sums the profile's samples from the load window per function and package.
 * Profiles and the text summary go to .tmp/bench-profiles/.
 */

const argv = process.argv.slice(2);
const secondsArg = argv.indexOf('--seconds');
const seconds = secondsArg >= 0 ? Number(argv[secondsArg + 1]) : 10;
const connections = 16;
const outDir = resolve('.tmp/bench-profiles');
const PROFILED = ['timesheet.rest', 'timesheet.graphql', 'licensePage.rest'];

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const dataset = await ensureDataset({ log: console.log });
  const others = await Promise.all([
    ServerProcess.start('gateway-1m', 'gateway', dataset.large),
    ServerProcess.start('raw', 'raw', dataset.small),
    ServerProcess.start('peer', 'peer', dataset.small),
    ServerProcess.start('mercurius', 'mercurius', dataset.small),
    ServerProcess.start('mercurius-plain', 'mercuriusPlain', dataset.small),
  ]);
  const [gateway1m, raw, peer, mercurius, mercuriusPlain] = others;
  const report: string[] = [];
  try {
    for (const id of PROFILED) {
      // One directory per run: every thread with a V8 isolate writes its own profile there.
      const dir = join(outDir, `${id}-${Date.now()}`);
      const gateway = await ServerProcess.start('gateway', 'gateway', dataset.small, { execArgv: ['--cpu-prof', '--cpu-prof-dir', dir] });
      let requests = 0;
      try {
        const groups = await buildScenarios({ gateway, gateway1m: gateway1m!, raw: raw!, peer: peer!, mercurius: mercurius!, mercuriusPlain: mercuriusPlain! }, dataset.small, console.log);
        const all: Scenario[] = [...groups.timesheet, ...groups.licensePage];
        const scenario = all.find((s) => s.id === id)!;
        await measure(scenario, { connections, seconds: 2 });
        const m = await measure(scenario, { connections, seconds });
        requests = m.requests;
        console.log(`${id}: ${m.requestsPerSecond.toFixed(0)} req/s under the profiler, ${m.cpuMicrosPerRequest.toFixed(0)} µs CPU/req`);
      } finally {
        await gateway.stop();
      }
      // The main thread's profile is the busy one; the window is the measured load (the profile ends moments after it).
      const summaries = readdirSync(dir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => summarizeProfile(join(dir, f), seconds))
        .sort((a, b) => b.busyMicros - a.busyMicros);
      if (!summaries[0]) throw new Error(`no profile written for ${id}`);
      report.push(renderProfile(id, summaries[0], requests));
    }
  } finally {
    await Promise.all(others.map((s) => s.stop()));
  }
  const text = report.join('\n\n');
  writeFileSync(join(outDir, 'summary.txt'), `${text}\n`);
  console.log(`\n${text}\n\nwrote ${join(outDir, 'summary.txt')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
