import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { importData } from '../../src/import/import-data.js';
import { emitImportEvents } from '../../src/import/events.js';
import type { Db } from '../../src/shared/db/knex.js';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { Dispatcher } from '../../src/workers/dispatcher.js';
import { PayloadRenderer } from '../../src/workers/payload-renderer.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export type Responder = (req: Received) => { status: number; headers?: Record<string, string>; body?: string };

/** A real HTTP receiver on 127.0.0.1, answering with `responder` (200 by default). */
export interface Receiver {
  url: string;
  received: Received[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let responder: Responder = () => ({ status: 200 });
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
      received.push(entry);
      const answer = responder(entry);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respond(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Webhook settings compressed for tests: retries after ~50 ms, fast polling, loopback allowed. */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8',
  WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05',
  WEBHOOK_POLL_INTERVAL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '3000',
};

export function startWebhookApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({ env: { ...FAST_WEBHOOKS, ...env } });
}

/**
 * A dispatcher of the test's own beside the app's (which such tests stop), named for its lease
 * rows; `now` gives it a clock the test moves itself.
 */
export function dispatcherOf(t: TestApp, owner: string, now?: () => number): Dispatcher {
  const config = t.app.config.webhooks;
  return new Dispatcher({ db: t.app.db, config, guard: new AddressGuard(config.allowedCidrs), renderer: new PayloadRenderer(t.app.db, t.app.execute), owner, now });
}

/** Polls until `check` passes (a condition, never a duration, is what tests wait for). */

export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function subscribe(
  t: TestApp,
  token: string,
  body: { subscriberId: number; uri: string; event?: string; eventType?: string },
): Promise<number> {
  const res = await t.request('POST', '/api/webhook/subscriptions', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as number;
}

/**
 * A webhook app with its own dispatcher stopped, and a receiver: for tests that play the
 * dispatcher themselves (`dispatcherOf`). `close` closes both.
 */
/**
 * Settings for following rows leased ahead: one send at a time per destination and
 * subscription, no poll during a test, and a lease long enough that nothing expires by itself.
 */
export const ONE_SEND_PER_DESTINATION = {
  WEBHOOK_POLL_INTERVAL_MS: '60000',
  WEBHOOK_CONCURRENCY: '8',
  WEBHOOK_CONCURRENCY_PER_HOST: '1',
  WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION: '1',
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_LEASE_MS: '60000',
};

/**
 * A test app whose own dispatcher is stopped (the suite plays the dispatchers itself) and a
 * receiver, started before the suite's tests and closed after them.
 */
export function appWithoutDispatcher(env: Record<string, string> = {}): { readonly t: TestApp; readonly receiver: Receiver } {
  let started: { t: TestApp; receiver: Receiver } | undefined;
  beforeAll(async () => {
    const t = await startWebhookApp(env);
    const receiver = await startReceiver();
    await t.app.webhooks.dispatcher.stop();
    started = { t, receiver };
  });
  afterAll(async () => {
    await started?.receiver.close();
    await started?.t.close();
  });
  const current = () => {
    if (!started) throw new Error('the app starts before the suite runs');
    return started;
  };
  return {
    get t() {
      return current().t;
    },
    get receiver() {
      return current().receiver;
    },
  };
}

/** Imports timesheets through the real import path, events included. */
/** A new subscription of subscriber 302 to created timesheets at `uri`, and `count` timesheets created for it from `firstId` on; resolves the subscription's id. */
export async function backlogAt(t: TestApp, uri: string, firstId: number, count: number): Promise<number> {
  const token = await t.token({ type: 'developer', companyId: 1 });
  const subscriptionId = await subscribe(t, token, { subscriberId: 302, uri, event: 'timesheet', eventType: 'created' });
  await importTimesheets(
    t.app.db,
    Array.from({ length: count }, (_, i) => ({ timesheetId: firstId + i, siteId: 100, employeeId: 1001 })),
  );
  return subscriptionId;
}

/** Runs a dispatcher of the test's own, on the app's connection, until every delivery of the subscription is delivered. */
export async function deliverAll(t: TestApp, subscriptionId: number): Promise<void> {
  const config = t.app.config.webhooks;
  const dispatcher = new Dispatcher({
    db: t.app.db,
    config,
    guard: new AddressGuard(config.allowedCidrs),
    renderer: new PayloadRenderer(t.app.db, t.app.execute),
  });
  dispatcher.start();
  try {
    await waitFor(async () => (await deliveriesOf(t.app.db, subscriptionId)).every((d) => d.state === 'delivered'), 'every delivery');
  } finally {
    await dispatcher.stop();
  }
}

export function importTimesheets(db: Db, timesheets: { timesheetId: number; siteId: number; employeeId: number; status?: string }[]) {
  return importData(db, { timesheets }, { onChanges: emitImportEvents });
}

export async function deliveriesOf(db: Db, subscriptionId: number) {
  return (await db('webhook_deliveries').where({ subscription_id: subscriptionId }).orderBy('id')) as Record<string, any>[];
}

/**
 * A receiver on raw TCP that answers each request with `reply` (bytes it writes itself, so it
 * can stall mid-body or never answer), and records when each connection closes.
 */
export interface RawReceiver {
  url: string;
  /** Requests whose headers arrived. */
  requests: number;
  /** Connections currently open. */
  open: number;
  /** Connections the client has closed (or reset). */
  closed: number;
  /** The most connections open at once. */
  peakOpen: number;
  close(): Promise<void>;
}

export async function startRawReceiver(reply: (socket: Socket) => void): Promise<RawReceiver> {
  const sockets = new Set<Socket>();
  const state = { requests: 0, open: 0, closed: 0, peakOpen: 0 };
  const server = createNetServer((socket) => {
    sockets.add(socket);
    state.open++;
    state.peakOpen = Math.max(state.peakOpen, state.open);
    let head = '';
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!answered && head.includes('\r\n\r\n')) {
        answered = true;
        state.requests++;
        reply(socket);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      state.open--;
      state.closed++;
    });
  });
  return Object.assign(state, await listenOnLoopback(server, sockets));
}

/** Listens on a free loopback port; `close` destroys the sockets it was given, then closes. */
export async function listenOnLoopback(server: NetServer, sockets: ReadonlySet<Socket>): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A 200 that promises a large body, sends a few bytes of it and then never finishes. */
export const stallingOk = (socket: Socket) => {
  socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000000\r\n\r\nstill going');
};

/** Reads the request and never answers. */
export const silent = () => undefined;

/** A receiver that answers the first request at once and holds every later one until `release`. */
export interface HoldingReceiver {
  url: string;
  /** webhook-id and path of each request, in arrival order. */
  received: { id: string; path: string }[];
  held: number;
  release(): void;
  close(): Promise<void>;
}

export async function startHoldingReceiver(): Promise<HoldingReceiver> {
  const held: ServerResponse[] = [];
  let holding = true;
  const received: { id: string; path: string }[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), path: req.url ?? '/' });
      if (holding && received.length > 1) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    get held() {
      return held.length;
    },
    release() {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(204).end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver on raw TCP that reads each request whole (head and Content-Length body) and has
 * `reply` answer it with bytes of its own, request after request on one connection, so a test can
 * see which connection each request came on and what exactly was sent.
 */
export interface ScriptedReceiver {
  url: string;
  port: number;
  /** Every request's bytes (latin1), and the connection it came on (1 for the first accepted). */
  requests: { text: string; connection: number }[];
  connections: number;
  open: number;
  close(): Promise<void>;
}

export async function startScriptedReceiver(reply: (socket: Socket, request: { text: string; connection: number; index: number }) => void): Promise<ScriptedReceiver> {
  const sockets = new Set<Socket>();
  const state = { requests: [] as { text: string; connection: number }[], connections: 0, open: 0 };
  const server = createNetServer((socket) => {
    sockets.add(socket);
    const connection = ++state.connections;
    state.open++;
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const text = pending.slice(0, end + 4 + length);
        pending = pending.slice(text.length);
        state.requests.push({ text, connection });
        reply(socket, { text, connection, index: state.requests.length - 1 });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      state.open--;
    });
  });
  const listening = await listenOnLoopback(server, sockets);
  return Object.assign(state, listening, { port: Number(new URL(listening.url).port) });
}

/**
 * A guard for checks of the connected address: names resolve as `resolving` allows, and each
 * address a socket reached is judged by `verdict` and recorded in `checked`.
 */
export function checkingGuard(resolving: AddressGuard, verdict: (address: string) => string | null): { guard: AddressGuard; checked: string[] } {
  const checked: string[] = [];
  const guard = Object.assign(Object.create(AddressGuard.prototype) as AddressGuard, {
    lookup: resolving.lookup,
    problem: (address: string) => {
      checked.push(address);
      return verdict(address);
    },
  });
  return { guard, checked };
}
