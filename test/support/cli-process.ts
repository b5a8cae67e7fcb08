import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/shiftgate.js');

/** Variables a developer's shell may set that would change what a spawned `shiftgate` does. */
const INHERITED_SETTINGS = ['SUBSCRIPTION_KEYS', 'JWT_SECRET', 'NODE_ENV', 'PORT', 'DATABASE_URL', 'DATA_DIR', 'CORS_ORIGINS'];

/** The environment for a spawned CLI: the test's own, minus shiftgate settings, plus `env` (undefined removes). */
export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SETTINGS) delete merged[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** False when the process had to be killed because it was still running at the deadline. */
  exited: boolean;
}

/** Runs `shiftgate ARGS…` to its end; a process still alive after `deadlineMs` is killed and reported. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, deadlineMs = 20_000, bin = BIN): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let exited = true;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => {
      exited = false;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, exited });
    });
  });
}

export interface Served {
  child: ChildProcess;
  port: number;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `shiftgate serve ARGS…` on an ephemeral port and waits for its "listening on" line. */
export function startServe(args: string[], env: Record<string, string | undefined>): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: cliEnv({ PORT: '0', LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exit = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exit;
    clearTimeout(timer);
    return code;
  };
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`serve did not start:\n${out}${err}`));
    }, 30_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const port = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        done({ child, port: Number(port), stdout: () => out, stderr: () => err, stop });
      }
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    void exit.then((code) => {
      clearTimeout(timer);
      fail(new Error(`serve exited early (${code}):\n${out}${err}`));
    });
  });
}

/** The non-empty lines of a stream's output. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
