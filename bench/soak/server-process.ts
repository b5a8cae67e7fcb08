import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'shiftgate.js');
const KEPT_LINES = 200;

/** What the kernel says about the server: open descriptors and resident memory. */
export interface ProcessSample {
  fds: number;
  rssBytes: number;
}

/** Reads /proc/<pid>: the number of entries in fd/ and VmRSS from status. */
export function sampleProcess(pid: number): ProcessSample {
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+([0-9]+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return { fds, rssBytes: kb * 1024 };
}

/** The last lines a child wrote, so a failure can show them without keeping a whole run's output. */
class Tail {
  readonly lines: string[] = [];
  /** The last few error lines, cut short: a stack is enough to say where, not worth a screenful. */
  readonly errors: string[] = [];
  private partial = '';
  errorLines = 0;

  push(chunk: Buffer): void {
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      // pino levels: 50 error, 60 fatal; plain console.error lines from the server count too.
      if (/"level":(5|6)0/.test(line) || /^(webhook dispatcher|live events|shiftgate):/.test(line)) {
        this.errorLines++;
        this.errors.push(line.length > 700 ? `${line.slice(0, 700)}…` : line);
        if (this.errors.length > 5) this.errors.shift();
      }
      this.lines.push(line);
      if (this.lines.length > KEPT_LINES) this.lines.shift();
    }
  }
}

/** `shiftgate serve` in a child process of its own, so /proc describes the server alone. */
export class ServerProcess {
  private exitedWith: string | null = null;

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    readonly baseUrl: string,
    private readonly tail: Tail,
  ) {
    child.on('exit', (code, signal) => {
      this.exitedWith = String(code ?? signal);
    });
  }

  static start(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail = new Tail();
    let seen = '';
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`shiftgate serve ${why}:\n${tail.lines.join('\n')}`));
      };
      const timer = setTimeout(() => fail(`did not start within ${timeoutMs / 1000} s`), timeoutMs);
      const onExit = (code: number | null, signal: string | null) => fail(`exited during start-up (${code ?? signal})`);
      child.once('exit', onExit);
      child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
      child.stdout?.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        if (seen.length < 4096) seen += chunk.toString('utf8');
        const port = /listening on http:\/\/[^:\s]+:([0-9]+)/.exec(seen)?.[1];
        if (port !== undefined && child.pid !== undefined) {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(new ServerProcess(child, child.pid, `http://127.0.0.1:${port}`, tail));
        }
      });
    });
  }

  get running(): boolean {
    return this.exitedWith === null;
  }

  get exitStatus(): string | null {
    return this.exitedWith;
  }

  /** Log lines at error level or above seen so far. */
  get errorLines(): number {
    return this.tail.errorLines;
  }

  lastLines(count: number): string[] {
    return this.tail.lines.slice(-count);
  }

  lastErrors(): string[] {
    return [...this.tail.errors];
  }

  sample(): ProcessSample {
    return sampleProcess(this.pid);
  }

  /** SIGTERM (a graceful drain), then SIGKILL if it has not exited in time. */
  async stop(timeoutMs = 30_000): Promise<string> {
    if (!this.running) return this.exitedWith ?? 'exited';
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!inTime) {
      this.child.kill('SIGKILL');
      await exited;
      return `killed after ${timeoutMs / 1000} s without exiting on SIGTERM`;
    }
    return this.exitedWith ?? 'exited';
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** Runs one `shiftgate …` command to completion, killed when it outlives `timeoutMs`. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // A CLI command prints a summary or one JSON object; anything beyond a few kB is not read.
  child.stdout?.on('data', (chunk: Buffer) => {
    if (stdout.length < 65_536) stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 65_536) stderr += chunk.toString('utf8');
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  return new Promise((resolve) => {
    const finish = (code: number | null) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started), timedOut });
    };
    child.once('error', (error) => {
      stderr += error.message;
      finish(null);
    });
    child.once('close', (code) => finish(code));
  });
}
