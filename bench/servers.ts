import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage, ServerStats } from './child-ipc.js';
import { JWT_SECRET, SUB_KEY } from './dataset.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export type ServerKind = 'gateway' | 'raw' | 'rawPg' | 'peer' | 'mercurius' | 'mercuriusPlain' | 'receiver';

/** The gateway runs the compiled dist/ under plain node; the baselines and peers run through tsx. */
const SCRIPTS: Record<ServerKind, { script: string; compiled: boolean }> = {
  gateway: { script: 'bench/gateway-server.js', compiled: true },
  raw: { script: 'bench/raw-server.ts', compiled: false },
  rawPg: { script: 'bench/raw-pg-server.ts', compiled: false },
  peer: { script: 'bench/peer-yoga-server.ts', compiled: false },
  mercurius: { script: 'bench/peer-mercurius-server.ts', compiled: false },
  mercuriusPlain: { script: 'bench/peer-mercurius-plain-server.ts', compiled: false },
  receiver: { script: 'bench/webhook-receiver.ts', compiled: false },
};

/** The gateway's configuration variables for a data set: a SQLite file or a database URL. */
export function gatewayConfig(database: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: database.includes('://') ? database : `sqlite:${database}`,
    SUBSCRIPTION_KEYS: SUB_KEY,
    JWT_SECRET,
    // The limiter still runs on every request; it just never says no to the load generator.
    RATE_LIMIT_PER_MINUTE: '10000000',
    TOKEN_RATE_LIMIT_PER_MINUTE: '10000000',
    ...extra,
  };
}

/** One server running in its own forked Node process, so its CPU and RSS are its own. */
export class ServerProcess {
  private seq = 0;
  private readonly pending = new Map<number, (stats: ServerStats) => void>();
  private readonly answers = new Map<number, (value: unknown) => void>();
  private exited = false;

  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'stats') {
        this.pending.get(message.seq)?.(message.stats);
        this.pending.delete(message.seq);
      } else if (message.type === 'answer') {
        this.answers.get(message.seq)?.(message.value);
        this.answers.delete(message.seq);
      }
    });
    child.on('exit', () => {
      this.exited = true;
    });
  }

  /**
   * `database` is a SQLite file or a database URL; the gateway takes `config` variables on top
   * of gatewayConfig's, and `args` go to the child's command line.
   */
  static async start(
    name: string,
    kind: ServerKind,
    database: string,
    options: { execArgv?: string[]; config?: Record<string, string>; args?: string[] } = {},
  ): Promise<ServerProcess> {
    const { script, compiled } = SCRIPTS[kind];
    const args = [
      ...(kind === 'gateway' ? ['--config', JSON.stringify(gatewayConfig(database, options.config))] : ['--db', database]),
      ...(options.args ?? []),
    ];
    const child = fork(compiled ? join(ROOT, script) : join(ROOT, 'bin/run-ts.js'), compiled ? args : [join(ROOT, script), ...args], {
      cwd: ROOT,
      execArgv: options.execArgv ?? [],
      // Every server runs as a production deployment would: graphql-js skips its development
      // checks. The gateway keeps introspection off in production; the bench does not need it.
      env: { ...process.env, NODE_ENV: 'production' },
      // stdout carries the gateway's per-request logs: written (and paid for), not shown.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${name} exited during startup (code ${code})`));
      child.once('exit', onExit);
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'ready') {
          child.off('exit', onExit);
          resolve(message.port);
        } else if (message.type === 'failed') {
          reject(new Error(`${name} failed to start: ${message.message}`));
        }
      });
    });
    return new ServerProcess(name, `http://127.0.0.1:${port}`, child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  stats(): Promise<ServerStats> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(`${this.name} is not running`));
      this.pending.set(seq, resolve);
      this.child.send({ type: 'stats', seq } satisfies ParentMessage);
    });
  }

  /** Sends a child-specific request (with a fresh seq) and resolves with its answer. */
  ask<T>(message: { type: string; [key: string]: unknown }): Promise<T> {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(`${this.name} is not running`));
      this.answers.set(seq, resolve as (value: unknown) => void);
      this.child.send({ ...message, seq });
    });
  }

  /** Asks the child to exit cleanly (so a --cpu-prof profile is written); kills it after 10 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies ParentMessage);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }
}
