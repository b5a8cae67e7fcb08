import { ConfigError, loadConfig, type Config } from './config.js';
import { importCommand } from './commands/import.js';
import { keysCommand } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { serveCommand } from './commands/serve.js';
import { subscribersCommand } from './commands/subscribers.js';

const USAGE = `Usage: shiftgate <command>

  serve [--port N]          start the gateway (migrates; loads demo data into an empty database)
  migrate                   apply database migrations
  import FILE               load a JSON data file (all or nothing)
  keys create --type developer|timesheet --company ID [--customers 1,2] [--sites 3,4] [--name TEXT] [--json]
  keys list [--json]        list API keys (never their secrets)
  keys revoke ID            revoke an API key
  subscribers show ID [--json]           a webhook subscriber, its signing secret and event filters
  subscribers rotate-secret ID [--json]  new signing secret; the old one keeps signing for 24 h

Configuration comes from the environment: DATABASE_URL, PORT, SUBSCRIPTION_KEYS, JWT_SECRET,
TOKEN_TTL_SECONDS (see README).`;

type Command = (args: string[], config: Config) => Promise<number>;

const commands: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  import: importCommand,
  keys: keysCommand,
  subscribers: subscribersCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`shiftgate: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`shiftgate: invalid configuration: ${error.message}`);
      return 1;
    }
    throw error;
  }
  return command(args, config);
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running; every other command ends here.
    if (code !== -1) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`shiftgate: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
