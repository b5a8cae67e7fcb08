/** Command-line options of `npm run bench -- …`. */
export interface BenchOptions {
  quick: boolean;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  regenerate: boolean;
  out: string;
  /** Licenses in the import file (1,000,000; 20,000 with --quick). */
  importRecords: number;
  /** Events written for the delivery throughput run (each goes to four subscriptions). */
  deliveryEvents: number;
  /** `--only a,b`: run just these groups (see BENCH_GROUPS); null runs all of them. */
  only: ReadonlySet<BenchGroup> | null;
}

/** The parts of a run that `--only` can pick; a load group's ratios are null when it did not run. */
export const BENCH_GROUPS = ['timesheet', 'licensePage', 'scale', 'timesheetList', 'postgres', 'delivery', 'import'] as const;
export type BenchGroup = (typeof BENCH_GROUPS)[number];

function parseOnly(raw: string | undefined): ReadonlySet<BenchGroup> | null {
  if (raw === undefined) return null;
  const names = raw.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const unknown = names.filter((n) => !(BENCH_GROUPS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) throw new Error(`--only takes a comma-separated list of ${BENCH_GROUPS.join(', ')}; got "${raw}"`);
  return new Set(names as BenchGroup[]);
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const number = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} needs a positive number, got "${raw}"`);
    return parsed;
  };
  return {
    quick,
    rounds: Math.round(number('rounds', quick ? 2 : 5)),
    seconds: number('seconds', quick ? 1 : 5),
    warmupSeconds: number('warmup', quick ? 0.5 : 2),
    connections: Math.round(number('connections', 16)),
    regenerate: argv.includes('--regenerate'),
    out: value('out') ?? 'bench/results.json',
    importRecords: Math.round(number('import-records', quick ? 20_000 : 1_000_000)),
    deliveryEvents: Math.round(number('delivery-events', quick ? 100 : 1_000)),
    only: parseOnly(value('only')),
  };
}
