import { ConfigError, loadConfig, type Config } from '../config.js';
import { firstLineOf } from '../shared/startup-error.js';
import { UsageError } from './args.js';

const USAGE = `Usage: shiftgate <command>

  serve [--port N] [--demo]  start the gateway (migrates; --demo loads demo data into an empty database)
  migrate                    apply database migrations
  import FILE                load a JSON data file (all or nothing)
  keys create --type developer|timesheet --company ID [--customers 1,2] [--sites 3,4] [--name TEXT] [--json]
  keys list [--json]         list API keys (never their secrets)
  keys revoke ID             revoke an API key
  subscribers show ID [--json]           a webhook subscriber, its signing secret and event filters
  subscribers rotate-secret ID [--json]  new signing secret; the old one keeps signing for 24 h

Run \`shiftgate <command> --help\` for one command's usage.
Configuration comes from the environment: DATABASE_URL, PORT, SUBSCRIPTION_KEYS, JWT_SECRET,
TOKEN_TTL_SECONDS, NODE_ENV (see README).`;

type Command = { run: (args: string[], config: Config) => Promise<number>; usage: string };

/**
 * Commands load on demand: the gateway's modules (GraphQL schema, HTTP stack) take a while to
 * import, and help, usage errors and configuration errors should not wait for them.
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: () => import('./serve.js').then((m) => ({ run: m.serveCommand, usage: m.SERVE_USAGE })),
  migrate: () => import('./migrate.js').then((m) => ({ run: m.migrateCommand, usage: m.MIGRATE_USAGE })),
  import: () => import('./import.js').then((m) => ({ run: m.importCommand, usage: m.IMPORT_USAGE })),
  keys: () => import('./keys.js').then((m) => ({ run: m.keysCommand, usage: m.KEYS_USAGE })),
  subscribers: () => import('./subscribers.js').then((m) => ({ run: m.subscribersCommand, usage: m.USAGE })),
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';
const commandNamed = (name: string | undefined) => (name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined);

/** Bad usage: what was wrong (if anything is named) above the usage, on stderr; exit code 2. */
function misuse(message: string, usage: string): number {
  console.error(message ? `shiftgate: ${message}\n\n${usage}` : usage);
  return 2;
}

/** Resolves with the exit code, or -1 when the process keeps running (serve). */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) return misuse('', USAGE);
  if (isHelp(name) || name === 'help') {
    const asked = name === 'help' ? args[0] : undefined;
    const topic = commandNamed(asked);
    if (asked !== undefined && !topic) return misuse(`unknown command "${asked}"`, USAGE);
    console.log(topic ? (await topic()).usage : USAGE);
    return 0;
  }
  const load = commandNamed(name);
  if (!load) return misuse(`unknown ${name.startsWith('-') ? 'option' : 'command'} "${name}"`, USAGE);
  const command = await load();
  // Help needs no configuration, so it works even when the environment is wrong.
  if (args.some(isHelp)) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(args, loadConfig());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`shiftgate: invalid configuration: ${error.message}`);
      return 1;
    }
    if (error instanceof UsageError) return misuse(error.message, command.usage);
    throw error;
  }
}

/**
 * A finished command whose process is still held open by a handle (a pool or socket that a
 * failure path did not get to close) is ended after this long, so start-up failures and
 * one-shot commands always exit.
 */
const EXIT_BACKSTOP_MS = 2000;

function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running; every other command ends here.
    if (code !== -1) finish(code);
  },
  (error: unknown) => {
    console.error(`shiftgate: ${firstLineOf(error)}`);
    finish(1);
  },
);
