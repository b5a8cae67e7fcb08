import { spawn } from 'node:child_process';
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

describe('SIGTERM', () => {
  it('stops accepting, finishes every in-flight request and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shiftgate-shutdown-'));
    const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', TOKEN_RATE_LIMIT_PER_MINUTE: '100000' };
    // The demo subscription key is only accepted when SUBSCRIPTION_KEYS is unset.
    delete env.SUBSCRIPTION_KEYS;
    delete env.JWT_SECRET;
    const child = spawn(process.execPath, ['bin/shiftgate.js', 'serve', '--demo'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
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

    const inFlight = Array.from({ length: 40 }, () => slowTokenRequest(started.port, started.apiKey));
    // Let the server accept every connection and start every handler before the signal.
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const r of inFlight) r.finish();
    const results = await Promise.all(inFlight.map((r) => r.done));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await exited).toBe(0);

    // And it no longer accepts connections.
    await expect(fetch(`http://127.0.0.1:${started.port}/healthz`)).rejects.toThrow();
  }, 60_000);
});
