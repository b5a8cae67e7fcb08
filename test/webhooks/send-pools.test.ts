import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { postWebhook, SendPools } from '../../src/webhooks/sender.js';
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
const limits = { socketsPerOrigin: 2, idleMs: 60_000, origins: 8, connectTimeoutMs: 2000 };

describe('keep-alive connections for webhook sends (one undici pool per origin)', () => {
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
    const p = new SendPools(guard, { ...limits, ...overrides });
    cleanup.push(() => p.close());
    return p;
  }
  const send = (url: string, p: SendPools) => postWebhook(`${url}/hook`, { 'webhook-id': 'msg_pool' }, '{}', { timeoutMs: 2000, guard: loopback, pools: p });

  it('reuses one connection for sends one after another to the same origin', async () => {
    const r = await receiver();
    // One connection per origin: with two, undici may open the second for a send made before the first is free again.
    const p = pool(loopback, { socketsPerOrigin: 1 });
    for (let i = 0; i < 5; i++) expect((await send(r.url, p)).status).toBe(204);
    expect(r.requests).toBe(5);
    expect(r.connections).toBe(1);
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

  it.each([
    ['a 2xx cut off at the read limit', 200, 'x'.repeat(64 * 1024)],
    ['a 500 cut off at the read limit', 500, 'x'.repeat(64 * 1024)],
    ['a whole 500', 500, 'down'],
    ['an empty 500', 500, ''],
  ])('does not reuse a connection after %s', async (_what, status, body) => {
    const r = await receiver((_req, res) => res.writeHead(status).end(body));
    const p = pool(loopback, { socketsPerOrigin: 1 });
    for (let i = 1; i <= 3; i++) {
      expect((await send(r.url, p)).status).toBe(status);
      // Each answer's connection closes; the next send goes on another.
      await waitFor(() => r.connections - r.open >= i, 'the connection to close', 5000);
    }
    expect(r.requests).toBe(3);
  });

  it('resolves every new socket through the guard: a name for a refused address never connects', async () => {
    const r = await receiver();
    const strict = new AddressGuard([]);
    const p = pool(strict);
    const port = new URL(r.url).port;
    const outcome = await postWebhook(`http://localhost:${port}/hook`, {}, '{}', { timeoutMs: 2000, guard: strict, pools: p });
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/refused/);
    expect(r.connections).toBe(0);
  });

  it('checks the address each new socket actually connected to, before a request is written', async () => {
    const r = await receiver();
    // Resolves like the real guard would allow, then refuses the address the socket reached.
    const { guard, checked } = checkingGuard(loopback, () => 'refused by the test');
    const p = new SendPools(guard, limits);
    cleanup.push(() => p.close());
    // A name, so that only the connected socket's address reaches the guard's check.
    const port = new URL(r.url).port;
    const outcome = await postWebhook(`http://localhost:${port}/hook`, {}, '{}', { timeoutMs: 2000, guard, pools: p });
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/refused by the test/) });
    expect(checked).toEqual(['127.0.0.1']);
    await waitFor(() => r.open === 0, 'the refused connection to close', 5000);
    expect(r.requests).toBe(0);
  });

  it('checks each new socket, and only new ones: reused sockets were checked when they connected', async () => {
    const r = await receiver((_req, res) => setTimeout(() => res.writeHead(204).end(), 10));
    const { guard, checked } = checkingGuard(loopback, (address) => loopback.problem(address));
    const p = new SendPools(guard, limits);
    cleanup.push(() => p.close());
    await Promise.all(Array.from({ length: 6 }, () => send(r.url, p)));
    expect(r.requests).toBe(6);
    expect(checked).toHaveLength(r.connections);
  });

  it('on close, fails the send under way and closes every connection; a later send opens a new one', async () => {
    let answered = 0;
    const r = await receiver((_req, res) => {
      // The second request is never answered: close finds it under way.
      if (answered++ === 0) res.writeHead(204).end();
    });
    const p = pool(loopback, { socketsPerOrigin: 1 });
    expect((await send(r.url, p)).status).toBe(204);
    const underWay = send(r.url, p);
    await waitFor(() => r.requests === 2, 'the second request');
    await p.close();
    expect(await underWay).toMatchObject({ status: null, error: expect.any(String) });
    await waitFor(() => r.open === 0, 'the pool’s connections to close', 5000);
    expect(p.size).toBe(0);
    answered = 0;
    expect((await send(r.url, p)).status).toBe(204);
    expect(r.connections).toBe(2);
  });
});
