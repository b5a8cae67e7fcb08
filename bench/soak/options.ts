/** Command-line options of `npm run soak -- …`. */
export interface SoakOptions {
  /** Length of the loaded phase, after the warm-up and before the drain. */
  minutes: number;
  /** A PostgreSQL server URL; the run works in a fresh schema of its own. Undefined: a fresh SQLite file. */
  databaseUrl: string | undefined;
}

export const SOAK_USAGE = 'usage: npm run soak -- [--minutes N] [--database-url postgres://…]';

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  let minutes = 1;
  let databaseUrl: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === '') throw new Error(`${name} needs a value\n${SOAK_USAGE}`);
      return next;
    };
    if (name === '--minutes') {
      const raw = value();
      minutes = Number(raw);
      // A day is far beyond what the bounded retry schedule and the receivers' bookkeeping are sized for.
      if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || minutes <= 0 || minutes > 24 * 60) {
        throw new Error(`--minutes needs a number above 0 and at most 1440, got "${raw}"\n${SOAK_USAGE}`);
      }
    } else if (name === '--database-url') {
      databaseUrl = value();
      if (!/^postgres(ql)?:\/\//i.test(databaseUrl)) throw new Error(`--database-url must be a postgres:// URL\n${SOAK_USAGE}`);
    } else if (name === '--help' || name === '-h') {
      throw new Error(SOAK_USAGE);
    } else {
      throw new Error(`unknown option "${arg}"\n${SOAK_USAGE}`);
    }
  }
  return { minutes, databaseUrl };
}
