import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { ConnectionPool } from '../../src/webhooks/connection-pool.js';
import { postWebhook } from '../../src/webhooks/sender.js';
import { checkingGuard, listenOnLoopback, waitFor } from './support.js';

interface Counted {
  url: string;
  /** Connections accepted, and those still open. */
  connections: number;
  open: number;
  peakOpen: number;
  requests: number;
  close(): Promise<void>;
}

/** A keep-alive HTTP receiver that counts its connections; `answer` replies to each request. */
async function counted(answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(204).end()): Promise<Counted> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, open: 0, peakOpen: 0, requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    state.connections++;
    state.open++;
    state.peakOpen = Math.max(state.peakOpen, state.open);
    socket.on('close', () => {
      sockets.delete(socket);
      state.open--;
    });
  });
  return Object.assign(state, await listenOnLoopback(server, sockets));
}

const loopback = new AddressGuard(['127.0.0.0/8']);
const limits = { socketsPerOrigin: 2, idleMs: 60_000, origins: 8 };

describe('keep-alive connections for webhook sends', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function receiver(answer?: (req: IncomingMessage, res: ServerResponse) => void) {
    const r = await counted(answer);
    cleanup.push(() => r.close());
    return r;
  }
  function pool(guard: AddressGuard = loopback, overrides: Partial<typeof limits> = {}) {
    const p = new ConnectionPool(guard, { ...limits, ...overrides });
    cleanup.push(() => p.close());
    return p;
  }
  const send = (url: string, p: ConnectionPool) => postWebhook(`${url}/hook`, { 'webhook-id': 'msg_pool' }, '{}', { timeoutMs: 2000, guard: loopback, pool: p });

  it('reuses one connection for sends one after another to the same origin', async () => {
    const r = await receiver();
    const p = pool();
    for (let i = 0; i < 5; i++) expect((await send(r.url, p)).status).toBe(204);
    expect(r.requests).toBe(5);
    expect(r.connections).toBe(1);
  });

  it('adds no listener to a kept-alive socket for each request it carries', async () => {
    const r = await receiver();
    const p = pool();
    const events = ['connect', 'data', 'end', 'error', 'close', 'timeout', 'drain', 'finish'];
    expect((await send(r.url, p)).status).toBe(204);
    const [socket] = p.idleSockets(new URL(r.url));
    const before = events.map((event) => socket!.listenerCount(event));
    for (let i = 0; i < 15; i++) expect((await send(r.url, p)).status).toBe(204);
    expect(r.connections).toBe(1);
    expect(p.idleSockets(new URL(r.url))).toEqual([socket]);
    expect(events.map((event) => socket!.listenerCount(event))).toEqual(before);
  });

  it('opens at most socketsPerOrigin connections to one origin, however many sends wait', async () => {
    const r = await receiver((_req, res) => setTimeout(() => res.writeHead(204).end(), 20));
    const p = pool();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => send(r.url, p)));
    expect(outcomes.every((o) => o.status === 204)).toBe(true);
    expect(r.peakOpen).toBeLessThanOrEqual(2);
    expect(r.connections).toBeLessThanOrEqual(2);
  });

  it('never carries one origin’s requests on another origin’s socket', async () => {
    const a = await receiver();
    const b = await receiver();
    const p = pool();
    await send(a.url, p);
    await send(b.url, p);
    await send(a.url, p);
    expect([a.connections, b.connections]).toEqual([1, 1]);
    expect([a.requests, b.requests]).toEqual([2, 1]);
    expect(p.size).toBe(2);
  });

  it('closes a connection left idle longer than idleMs', async () => {
    const r = await receiver();
    const p = pool(loopback, { idleMs: 100 });
    await send(r.url, p);
    await waitFor(() => r.open === 0, 'the idle connection to be closed', 5000);
    await send(r.url, p);
    expect(r.connections).toBe(2);
  });

  it('keeps agents for at most `origins` origins, closing the least recently used', async () => {
    const receivers = [await receiver(), await receiver(), await receiver()];
    const p = pool(loopback, { origins: 2 });
    for (const r of receivers) await send(r.url, p);
    expect(p.size).toBe(2);
    await waitFor(() => receivers[0]!.open === 0, 'the evicted origin’s connection to close', 5000);
    expect(receivers[1]!.open + receivers[2]!.open).toBe(2);
  });

  it('does not reuse a socket whose answer was cut off at the read limit', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end('x'.repeat(64 * 1024)));
    const p = pool();
    expect((await send(r.url, p)).status).toBe(500);
    await waitFor(() => r.open === 0, 'the cut-off connection to close', 5000);
    expect((await send(r.url, p)).status).toBe(500);
    expect(r.connections).toBe(2);
  });

  it('resolves every new socket through the guard: a name for a refused address never connects', async () => {
    const r = await receiver();
    const strict = new AddressGuard([]);
    const p = pool(strict);
    const port = new URL(r.url).port;
    const outcome = await postWebhook(`http://localhost:${port}/hook`, {}, '{}', { timeoutMs: 2000, guard: strict, pool: p });
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/refused/);
    expect(r.connections).toBe(0);
  });

  it('checks the address each new socket actually connected to, before a request is written', async () => {
    const r = await receiver();
    // Resolves like the real guard would allow, then refuses the address the socket reached.
    const { guard, checked } = checkingGuard(loopback, () => 'refused by the test');
    const p = new ConnectionPool(guard, limits);
    cleanup.push(() => p.close());
    // A name, so that only the connected socket's address reaches the guard's check.
    const port = new URL(r.url).port;
    const outcome = await postWebhook(`http://localhost:${port}/hook`, {}, '{}', { timeoutMs: 2000, guard, pool: p });
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/refused by the test/) });
    expect(checked).toEqual(['127.0.0.1']);
    await waitFor(() => r.open === 0, 'the refused connection to close', 5000);
    expect(r.requests).toBe(0);
  });

  it('checks each new socket, and only new ones: reused sockets were checked when they connected', async () => {
    const r = await receiver((_req, res) => setTimeout(() => res.writeHead(204).end(), 10));
    const { guard, checked } = checkingGuard(loopback, (address) => loopback.problem(address));
    const p = new ConnectionPool(guard, limits);
    cleanup.push(() => p.close());
    await Promise.all(Array.from({ length: 6 }, () => send(r.url, p)));
    expect(r.requests).toBe(6);
    expect(checked).toHaveLength(r.connections);
  });

  it('after close, sends still work on connections of their own and nothing is kept', async () => {
    const r = await receiver();
    const p = pool();
    await send(r.url, p);
    p.close();
    await waitFor(() => r.open === 0, 'the pool’s connections to close', 5000);
    expect((await send(r.url, p)).status).toBe(204);
    await waitFor(() => r.open === 0, 'the one-off connection to close', 5000);
    expect(p.size).toBe(0);
  });
});
