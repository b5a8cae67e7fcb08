import { readFileSync } from 'node:fs';

/**
 * Reads a V8 .cpuprofile (from node --cpu-prof) and sums time per function and per package,
 * self and inclusive, over a window at the end of the profile (the load phase).
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  /** Sampled (non-idle) CPU time in the window, microseconds. */
  busyMicros: number;
  windowMicros: number;
  byPackage: [string, number][];
  selfByFunction: [string, number][];
  inclusiveByFunction: [string, number][];
}

/** Where a frame's code lives: a package, a project folder, node internals or the VM. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/');
    return `node:${parts[0] === 'internal' ? parts.slice(1, 2).join('/') || 'internal' : parts[0]}`;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return `src/${url.slice(src + 5).split('/')[0]}`;
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return 'bench';
  return url;
}

function label(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  const url = frame.url;
  const nm = url.lastIndexOf('/node_modules/');
  const short = nm >= 0 ? url.slice(nm + 14) : url.replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
  return url ? `${name}  ${short}:${frame.lineNumber + 1}` : name;
}

function sortedEntries(map: Map<string, number>, limit: number): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

export function summarizeProfile(file: string, windowSeconds: number, limit = 30): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const windowStart = profile.endTime - windowSeconds * 1e6;
  const byPackage = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let time = profile.startTime;
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < windowStart) continue;
    // A sample stands for the time until the next one.
    const micros = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += micros;
    const pkg = packageOf(node.callFrame);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    const own = label(node.callFrame);
    selfByFunction.set(own, (selfByFunction.get(own) ?? 0) + micros);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === '(root)') continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
  }
  return {
    busyMicros: busy,
    windowMicros: windowSeconds * 1e6,
    byPackage: sortedEntries(byPackage, limit),
    selfByFunction: sortedEntries(selfByFunction, limit),
    inclusiveByFunction: sortedEntries(inclusive, limit * 2),
  };
}

/** Renders a summary as µs per request (and share of sampled CPU). */
export function renderProfile(title: string, summary: ProfileSummary, requests: number): string {
  const per = (micros: number) => (micros / requests).toFixed(1).padStart(7);
  const share = (micros: number) => `${((100 * micros) / summary.busyMicros).toFixed(1).padStart(5)}%`;
  const lines = [
    `## ${title}: ${requests} requests, ${(summary.busyMicros / requests).toFixed(0)} µs sampled CPU per request (main thread)`,
    '',
    'self time by package (µs/req, share):',
    ...summary.byPackage.map(([name, m]) => `  ${per(m)}  ${share(m)}  ${name}`),
    '',
    'self time by function:',
    ...summary.selfByFunction.map(([name, m]) => `  ${per(m)}  ${share(m)}  ${name}`),
    '',
    'inclusive time by function:',
    ...summary.inclusiveByFunction.map(([name, m]) => `  ${per(m)}  ${share(m)}  ${name}`),
  ];
  return lines.join('\n');
}

// CLI: node bin/run-ts.js bench/cpuprofile-summary.ts FILE WINDOW_SECONDS REQUESTS
if (process.argv[1]?.endsWith('cpuprofile-summary.ts') && process.argv[2]) {
  const [file, window = '10', requests = '1'] = process.argv.slice(2);
  console.log(renderProfile(file!, summarizeProfile(file!, Number(window)), Number(requests)));
}
