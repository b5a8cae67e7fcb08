import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Slow {
  done: Promise<{ status: number; body: string }>;
  finish(): void;
}

/** A token request whose body arrives in two parts, so it is in flight until finish(). */
function slowTokenRequest(port: number, apiKey: string): Slow {
  const body = JSON.stringify({ apiKey });
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/external/token/request',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'external-gh-apim-sub-key': 'demo-subscription-key' },
  });
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  return { done, finish: () => req.end(body.slice(5)) };
}

interface Started {
  child: ChildProcess;
  port: number;
  apiKey: string;
  exited: Promise<{ code: number | null; at: number }>;
}

/** `shiftgate serve --demo` on a fresh SQLite file, once it says where it listens. */
async function startServe(extraEnv: Record<string, string> = {}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'shiftgate-shutdown-'));
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', TOKEN_RATE_LIMIT_PER_MINUTE: '100000', ...extraEnv };
  // The demo subscription key is only accepted when SUBSCRIPTION_KEYS is unset.
  delete env.SUBSCRIPTION_KEYS;
  delete env.JWT_SECRET;
  const child = spawn(process.execPath, ['bin/shiftgate.js', 'serve', '--demo'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  let out = '';
  const started = await new Promise<{ port: number; apiKey: string }>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const port = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1];
      const apiKey = /Demo API key \(KeyType=developer\): (\S+)/.exec(out)?.[1];
      if (port && apiKey) resolve({ port: Number(port), apiKey });
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('exit', () => reject(new Error(`server exited early: ${out}${err}`)));
  });
  return { child, exited, ...started };
}

type Answer = { status: number; connection: string | undefined; body: string } | { error: string };

/** One GET on a connection of its own. */
function getOnNewConnection(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('SIGTERM', () => {
  it('stops accepting, finishes every in-flight request and exits 0', async () => {
    const started = await startServe();
    const { child } = started;

    const inFlight = Array.from({ length: 40 }, () => slowTokenRequest(started.port, started.apiKey));
    // Let the server accept every connection and start every handler before the signal.
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const r of inFlight) r.finish();
    const results = await Promise.all(inFlight.map((r) => r.done));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect((await started.exited).code).toBe(0);

    // And it no longer accepts connections.
    await expect(fetch(`http://127.0.0.1:${started.port}/healthz`)).rejects.toThrow();
  }, 60_000);

  it('answers every connection accepted before the listener closed, resets none, and exits 0 within SHUTDOWN_TIMEOUT_MS', async () => {
    const shutdownTimeoutMs = 5000;
    const started = await startServe({ SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs) });
    const sub = { 'external-gh-apim-sub-key': 'demo-subscription-key' };
    const tokenRes = await fetch(`http://127.0.0.1:${started.port}/api/external/token/request`, {
      method: 'POST',
      headers: { ...sub, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: started.apiKey }),
    });
    const token = ((await tokenRes.json()) as { data: { accessToken: string } }).data.accessToken;
    const headers = { ...sub, authorization: `Bearer ${token}` };
    const path = (i: number) => (i % 10 === 0 ? '/readyz' : '/api/external/customers?pageSize=5');
    const warm = await getOnNewConnection(started.port, path(1), headers);
    expect(warm).toMatchObject({ status: 200 });

    const answers = Array.from({ length: 200 }, (_, i) => getOnNewConnection(started.port, path(i), headers));
    await new Promise((r) => setTimeout(r, 30));
    const signalled = Date.now();
    started.child.kill('SIGTERM');
    const results = await Promise.all(answers);

    const failed = results.filter((r): r is { error: string } => 'error' in r);
    expect(failed.map((r) => r.error)).toEqual([]);
    for (const [i, r] of results.entries()) {
      if ('error' in r) continue;
      if (r.status === 503) {
        expect(r.connection).toBe('close');
        if (path(i) === '/readyz') expect(JSON.parse(r.body)).toMatchObject({ status: 'draining' });
      } else {
        expect(r.status).toBe(200);
      }
    }
    const exit = await started.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan(shutdownTimeoutMs);
  }, 60_000);
});
