import type { Measurement } from './measure.js';
import { median, round, spread, type Spread } from './stats.js';

/** Every round's measurement of every scenario, by scenario id (rounds in run order). */
export type Rounds = Map<string, { label: string; rounds: Measurement[] }>;

export interface ScenarioSummary {
  label: string;
  rounds: number;
  requestsPerSecond: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  cpuMicrosPerRequest: Spread;
  loadgenMicrosPerRequest: Spread;
  sqlPerRequest: Spread;
  rssMB: Spread;
}

export interface Target {
  value: number;
  target: string;
  met: boolean;
}

const METRICS = [
  'requestsPerSecond',
  'p50Ms',
  'p99Ms',
  'cpuMicrosPerRequest',
  'loadgenMicrosPerRequest',
  'sqlPerRequest',
  'rssMB',
] as const satisfies readonly (keyof Measurement)[];

function rounded(s: Spread, digits: number): Spread {
  return { median: round(s.median, digits), min: round(s.min, digits), max: round(s.max, digits) };
}

export function summarize(rounds: Rounds): Record<string, ScenarioSummary> {
  const out: Record<string, ScenarioSummary> = {};
  for (const [id, { label, rounds: list }] of rounds) {
    const summary = { label, rounds: list.length } as ScenarioSummary;
    for (const metric of METRICS) {
      const digits = metric === 'requestsPerSecond' || metric === 'cpuMicrosPerRequest' || metric === 'loadgenMicrosPerRequest' ? 0 : 3;
      summary[metric] = rounded(spread(list.map((m) => m[metric])), digits);
    }
    out[id] = summary;
  }
  return out;
}

/** Median over rounds of a per-round ratio: rounds alternate, so round i of A and B are neighbours in time. */
export function pairedRatio(rounds: Rounds, a: string, b: string, metric: keyof Measurement): number {
  const left = rounds.get(a)?.rounds ?? [];
  const right = rounds.get(b)?.rounds ?? [];
  const ratios = left.slice(0, right.length).map((m, i) => m[metric] / right[i]![metric]);
  return round(median(ratios), 3);
}

function cell(s: Spread, digits: number): string {
  const f = (v: number) => v.toFixed(digits);
  return `${f(s.median)} [${f(s.min)}–${f(s.max)}]`;
}

export function table(summaries: Record<string, ScenarioSummary>): string {
  const header = ['scenario', 'req/s  median [min–max]', 'p50 ms', 'p99 ms', 'CPU µs/req', 'SQL/req', 'RSS MB', 'loadgen µs/req'];
  const rows = Object.values(summaries).map((s) => [
    s.label,
    cell(s.requestsPerSecond, 0),
    s.p50Ms.median.toFixed(2),
    s.p99Ms.median.toFixed(2),
    s.cpuMicrosPerRequest.median.toFixed(0),
    s.sqlPerRequest.median.toFixed(2),
    s.rssMB.max.toFixed(0),
    s.loadgenMicrosPerRequest.median.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function targetsTable(targets: Record<string, Target>): string {
  return Object.entries(targets)
    .map(([name, t]) => {
      const status = Number.isNaN(t.value) ? 'not run' : t.target === 'reported' ? '' : t.met ? 'met' : 'MISSED';
      return `${status.padEnd(7)} ${name.padEnd(30)} ${String(t.value).padStart(9)}   ${t.target === 'reported' ? 'reported' : `target ${t.target}`}`;
    })
    .join('\n');
}
