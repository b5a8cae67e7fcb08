import { runLoad, type LoadOptions } from './load.js';
import type { Scenario } from './scenarios.js';

/** One timed run of one scenario, with the server's own cost over the same window. */
export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Server process CPU (user + system) per completed request. */
  cpuMicrosPerRequest: number;
  /** The load generator's CPU per request: when it nears 1e6 / req/s, autocannon is the limit. */
  loadgenMicrosPerRequest: number;
  sqlPerRequest: number;
  rssMB: number;
}

export class LoadFailure extends Error {}

export async function measure(scenario: Scenario, options: LoadOptions): Promise<Measurement> {
  const before = await scenario.server.stats();
  const loadgenBefore = process.cpuUsage();
  const load = await runLoad(scenario.target, {
    ...options,
    connections: scenario.connections ?? options.connections,
    seconds: Math.max(options.seconds, scenario.minSeconds ?? 0),
    timeoutSeconds: Math.max(10, 2 * (scenario.minSeconds ?? 0)),
  });
  const loadgen = process.cpuUsage(loadgenBefore);
  const after = await scenario.server.stats();
  if (load.failures > 0 || load.ok === 0) {
    throw new LoadFailure(`${scenario.label}: ${load.failures} failed responses of ${load.ok + load.failures}; first: ${load.failureSample ?? 'no responses'}`);
  }
  const cpu = after.userMicros - before.userMicros + (after.systemMicros - before.systemMicros);
  return {
    requestsPerSecond: load.requestsPerSecond,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    requests: load.ok,
    cpuMicrosPerRequest: cpu / load.ok,
    loadgenMicrosPerRequest: (loadgen.user + loadgen.system) / load.ok,
    sqlPerRequest: (after.sqlStatements - before.sqlStatements) / Math.max(1, after.requestsServed - before.requestsServed),
    rssMB: after.rssBytes / (1024 * 1024),
  };
}
