import { execFile } from 'node:child_process';
import { createServer as createNetServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { MAX_WAITING_PER_ORIGIN, postWebhook, SendPools, type PoolLimits } from '../../src/webhooks/sender.js';
import { listenOnLoopback, startScriptedReceiver, waitFor, type ScriptedReceiver } from './support.js';

const guard = new AddressGuard(['127.0.0.0/8']);
const run = promisify(execFile);
const TIMEOUT_MS = 1000;

/** Writes `text` one byte per turn of the event loop, so each byte reaches the client in a read of its own. */
function trickle(socket: Socket, text: string): void {
  socket.setNoDelay(true);
  const bytes = Buffer.from(text, 'latin1');
  let at = 0;
  const next = () => {
    if (at >= bytes.length || socket.destroyed) return;
    socket.write(bytes.subarray(at, ++at));
    setTimeout(next, 1);
  };
  next();
}

describe('sending through undici: what receivers answer, and what is reused', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function receiver(reply: Parameters<typeof startScriptedReceiver>[0]): Promise<ScriptedReceiver> {
    const r = await startScriptedReceiver(reply);
    cleanup.push(() => r.close());
    return r;
  }
  // One connection per origin unless a test says otherwise, so that reuse is what the receiver sees.
  function pool(limits: Partial<PoolLimits> = {}): SendPools {
    const p = new SendPools(guard, { socketsPerOrigin: 1, idleMs: 60_000, origins: 8, connectTimeoutMs: TIMEOUT_MS, ...limits });
    cleanup.push(() => p.close());
    return p;
  }
  const send = (r: ScriptedReceiver, p: SendPools, headers: Record<string, string> = { 'webhook-id': 'msg_raw' }, timeoutMs = TIMEOUT_MS) =>
    postWebhook(`${r.url}/hook?x=1`, headers, '{"a":"ü"}', { timeoutMs, guard, pools: p });
  /** Sends twice, one after the other: resolves both outcomes and whether the second went on the first one's connection. */
  async function twice(r: ScriptedReceiver, p: SendPools) {
    const first = await send(r, p);
    const second = await send(r, p);
    return { first, second, reused: r.requests.length === 2 && r.requests[1]!.connection === r.requests[0]!.connection };
  }

  it('writes the request line, Host as in the URI, the headers, and the body in UTF-8', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    const p = pool();
    await send(r, p);
    const body = '{"a":"ü"}';
    const [head = '', sent] = r.requests[0]!.text.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('POST /hook?x=1 HTTP/1.1');
    expect(lines.slice(1).map((line) => line.toLowerCase()).sort()).toEqual(
      [`host: 127.0.0.1:${r.port}`, 'webhook-id: msg_raw', 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`, 'user-agent: shiftgate-webhooks/1', 'connection: keep-alive'].sort(),
    );
    expect(sent).toBe(Buffer.from(body).toString('latin1'));
    // Credentials in the URI go as Basic authorization, as node's client sends them.
    await postWebhook(`http://us%20er:p%C3%A4ss@127.0.0.1:${r.port}/`, {}, '{}', { timeoutMs: TIMEOUT_MS, guard, pools: p });
    expect(r.requests[1]!.text).toContain(`\r\nauthorization: Basic ${Buffer.from('us er:päss').toString('base64')}\r\n`);
  });

  it('refuses a header that could split the request, and connects nowhere', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    const outcome = await send(r, pool(), { 'webhook-id': 'msg\r\nx-injected: 1' });
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/invalid webhook-id header/) });
    expect(r.connections).toBe(0);
  });

  /** Answers every request with the same bytes. */
  const answer = (text: string) => (socket: Socket) => socket.write(text);
  it.each([
    [
      'reads an answer that arrives byte by byte',
      (socket: Socket) => trickle(socket, 'HTTP/1.1 503 Busy\r\nRetry-After: 30\r\nContent-Length: 4\r\n\r\nbusy'),
      { status: 503, error: 'HTTP 503: busy', retryAfter: '30' },
      false,
    ],
    [
      'reads a 2xx chunked body with extensions and trailers to its end',
      answer('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n6;a=b\r\nhello \r\n5;note="x"\r\nworld\r\n0\r\nx-trailer: done\r\n\r\n'),
      { status: 200, error: null },
      true,
    ],
    [
      'drops a failed chunked answer at its head, keeping no excerpt',
      answer('HTTP/1.1 500 Oops\r\ntransfer-encoding: chunked\r\n\r\n6;a=b\r\nhello \r\n5 ; note="x"\r\nworld\r\n0\r\nx-trailer: done\r\n\r\n'),
      { status: 500, error: 'HTTP 500' },
      false,
    ],
    [
      'skips 103 Early Hints, and counts the 204 after them',
      answer('HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'),
      { status: 204, error: null },
      true,
    ],
    // undici's rule: a 100 Continue nobody asked for (no Expect header is sent) is not HTTP it accepts.
    ['fails on a 100 Continue nobody asked for', answer('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'), { status: null, error: 'bad response' }, false],
    ['keeps an HTTP/1.0 connection that asks for keep-alive', answer('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok'), { status: 200 }, true],
    ['closes a connection after Connection: close', answer('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'), { status: 204 }, false],
    ['closes a connection after an HTTP/1.0 answer', answer('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok'), { status: 200 }, false],
    [
      'reads a body without a length until the receiver closes',
      (socket: Socket) => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\nupstream down'),
      { status: 502, error: 'HTTP 502: upstream down' },
      false,
    ],
    ['closes a connection that carried bytes after the end of the answer', answer('HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\n\r\n'), { status: 204 }, false],
  ])('%s', async (_what, reply, expected, reused) => {
    const r = await receiver(reply);
    const outcome = await twice(r, pool());
    expect(outcome.first).toMatchObject(expected);
    expect(outcome.second).toMatchObject(expected);
    expect(outcome.reused).toBe(reused);
    // A connection not reused is closed, not left behind.
    if (!reused) await waitFor(() => r.connections - r.open >= 2, 'both connections to close', 5000);
  });

  it('closes an idle connection that receives anything, and sends the next request on a new one', async () => {
    const r = await receiver((socket, request) => {
      socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      // An answer nobody asked for, once the first exchange is over.
      if (request.index === 0) setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), 30);
    });
    const p = pool();
    expect((await send(r, p)).status).toBe(204);
    await waitFor(() => r.open === 0, 'the idle connection to be closed', 5000);
    expect((await send(r, p)).status).toBe(204);
    expect(r.connections).toBe(2);
  });

  it('forgets an idle connection the receiver closed, and sends the next request on a new one without an error', async () => {
    const r = await receiver((socket) => {
      socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      setTimeout(() => socket.end(), 20);
    });
    const p = pool();
    expect((await send(r, p)).status).toBe(204);
    await waitFor(() => r.open === 0, 'the receiver to close the idle connection', 5000);
    expect(await send(r, p)).toMatchObject({ status: 204, error: null });
    expect(r.connections).toBe(2);
  });

  it('keeps no connection the receiver announces it will close within a second (Keep-Alive: timeout=1)', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 204 No Content\r\nKeep-Alive: timeout=1\r\n\r\n'));
    const p = pool();
    const { reused } = await twice(r, p);
    expect(reused).toBe(false);
    await waitFor(() => r.open === 0, 'both connections to close', 5000);
  });

  it('drops the connection after any answer but a 2xx, so an answer sent unasked is never read as the next one’s', async () => {
    const r = await receiver((socket) => {
      socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\nnope');
      setTimeout(() => !socket.destroyed && socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), 3);
    });
    const p = pool({ socketsPerOrigin: 2 });
    const outcomes: { status: number | null }[] = [];
    for (let i = 0; i < 20; i++) outcomes.push(await send(r, p));
    expect(outcomes.filter((o) => o.status !== 500)).toEqual([]);
    expect(new Set(r.requests.map((q) => q.connection)).size).toBe(20);
  });

  it.each([
    ['a header section beyond 16 KB', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, /Headers Overflow/],
    ['conflicting Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok', /content-length/i],
    ['a status line that is not HTTP', 'HELLO\r\n\r\n', /Expected HTTP/],
  ])('fails on %s, with no status, and closes the connection', async (_what, answer, error) => {
    const r = await receiver((socket) => socket.write(answer));
    const p = pool();
    const outcome = await send(r, p);
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(error) });
    await waitFor(() => r.connections - r.open >= 1, 'the connection to close', 5000);
  });

  it('keeps a 2xx whose chunked body turns out malformed as delivered, and closes the connection', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nnot-hex\r\n'));
    const outcome = await send(r, pool());
    expect(outcome).toMatchObject({ status: 200, error: expect.stringMatching(/Invalid character in chunk size/) });
    await waitFor(() => r.connections - r.open >= 1, 'the connection to close', 5000);
  });

  it('serves sends waiting for a socket in their order of arrival', async () => {
    const r = await receiver((socket) => setTimeout(() => socket.write('HTTP/1.1 204 No Content\r\n\r\n'), 5));
    const p = pool({ socketsPerOrigin: 1 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => send(r, p, { 'webhook-id': `msg_${i}` })));
    expect(outcomes.every((o) => o.status === 204)).toBe(true);
    expect(r.requests.map((q) => /webhook-id: (\w+)/.exec(q.text)?.[1])).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5']);
    expect(r.connections).toBe(1);
  });

  it('counts the wait for a connection in the deadline, and never writes a send that gave up waiting', async () => {
    let release: (() => void) | undefined;
    const r = await receiver((socket, request) => {
      if (request.index === 0) release = () => socket.write('HTTP/1.1 204 No Content\r\n\r\n');
      else socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    });
    const p = pool({ socketsPerOrigin: 1 });
    const held = send(r, p, { 'webhook-id': 'msg_held' }, 5000);
    await waitFor(() => release, 'the first request');
    expect(await send(r, p, { 'webhook-id': 'msg_gave_up' }, 100)).toMatchObject({ status: null, error: 'timed out after 100 ms' });
    release!();
    expect((await held).status).toBe(204);
    expect((await send(r, p, { 'webhook-id': 'msg_next' })).status).toBe(204);
    expect(r.requests.map((q) => /webhook-id: (\w+)/.exec(q.text)?.[1])).toEqual(['msg_held', 'msg_next']);
  });

  it(`refuses a send at once when ${MAX_WAITING_PER_ORIGIN} already wait for a socket to its origin`, async () => {
    const r = await receiver(() => undefined);
    const p = pool({ socketsPerOrigin: 1 });
    const waiting = Array.from({ length: MAX_WAITING_PER_ORIGIN + 1 }, () => send(r, p, undefined, 500));
    const refused = await send(r, p, undefined, 500);
    expect(refused).toMatchObject({ status: null, error: expect.stringMatching(/^too many sends waiting for a connection to http:\/\/127\.0\.0\.1:/) });
    expect(refused.durationMs).toBeLessThan(100);
    const outcomes = await Promise.all(waiting);
    expect(outcomes.every((o) => o.error === 'timed out after 500 ms')).toBe(true);
  });

  it('on close, fails the exchange under way and the sends waiting, and keeps nothing', async () => {
    const r = await receiver(() => undefined);
    const p = pool({ socketsPerOrigin: 1 });
    const busy = send(r, p, undefined, 5000);
    const waiting = send(r, p, undefined, 5000);
    await waitFor(() => r.requests.length === 1, 'the first request');
    await p.close();
    expect(await busy).toMatchObject({ status: null, error: expect.stringMatching(/destroyed/) });
    expect(await waiting).toMatchObject({ status: null, error: expect.stringMatching(/destroyed/) });
    await waitFor(() => r.open === 0, 'the connection to close', 5000);
  });

  it('reports a connection that cannot be made with node’s own words', async () => {
    const r = await receiver(() => undefined);
    const { port } = r;
    await r.close();
    const outcome = await postWebhook(`http://127.0.0.1:${port}/`, {}, '{}', { timeoutMs: TIMEOUT_MS, guard, pools: pool() });
    expect(outcome).toMatchObject({ status: null, error: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('lets an exchange run past the idle time of a reused connection: only the deadline bounds it', async () => {
    const r = await receiver((socket, request) => setTimeout(() => socket.write('HTTP/1.1 204 No Content\r\n\r\n'), request.index === 0 ? 0 : 300));
    const p = pool({ idleMs: 100 });
    expect((await send(r, p)).status).toBe(204);
    expect(await send(r, p, undefined, 2000)).toMatchObject({ status: 204, error: null });
    expect(r.connections).toBe(1);
    // Idle once more, it is closed after idleMs all the same.
    await waitFor(() => r.open === 0, 'the idle connection to close', 2000);
  });

  it('does not follow a redirect: a 3xx is a failed attempt with its excerpt', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 308 Permanent Redirect\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 5\r\n\r\nmoved'));
    expect(await send(r, pool())).toMatchObject({ status: 308, error: 'redirect not followed: moved' });
    expect(r.requests).toHaveLength(1);
  });

  it('takes a 2xx that came before the request was all written, and closes the connection once idle', async () => {
    const sockets = new Set<Socket>();
    let connections = 0;
    // Answers at once and reads nothing, so a large request stays in the client's buffers.
    const server = createNetServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.pause();
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    });
    const { url, close } = await listenOnLoopback(server, sockets);
    cleanup.push(close);
    const p = pool({ idleMs: 100 });
    const big = JSON.stringify({ data: 'x'.repeat(32 * 1024 * 1024) });
    expect(await postWebhook(`${url}/`, {}, big, { timeoutMs: 5000, guard, pools: p })).toMatchObject({ status: 200, error: null });
    // Reading now, the receiver sees the rest of the request, and the connection's end after the idle time.
    for (const socket of sockets) socket.resume();
    await waitFor(() => sockets.size === 0, 'the connection to close', 5000);
    expect(connections).toBe(1);
  });

  it('lets an exchange under way on an evicted origin finish, then closes its connection', async () => {
    let answer: (() => void) | undefined;
    const a = await receiver((socket) => (answer = () => socket.write('HTTP/1.1 204 No Content\r\n\r\n')));
    const b = await receiver((socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    const p = pool({ origins: 1 });
    const underWay = send(a, p, undefined, 5000);
    await waitFor(() => answer, 'the first request');
    expect((await send(b, p)).status).toBe(204);
    expect(p.size).toBe(1);
    answer!();
    expect((await underWay).status).toBe(204);
    await waitFor(() => a.open === 0, 'the evicted origin’s connection to close', 5000);
    expect(b.open).toBe(1);
  });

  it('lets a kept-alive idle connection not keep the process alive', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    // A process of its own (on the compiled modules) that sends once and then has nothing to do.
    const script = `
      const { AddressGuard } = await import(${JSON.stringify(pathToFileURL(resolve('dist/webhooks/address-guard.js')).href)});
      const { postWebhook, SendPools } = await import(${JSON.stringify(pathToFileURL(resolve('dist/webhooks/sender.js')).href)});
      const guard = new AddressGuard(['127.0.0.0/8']);
      const pools = new SendPools(guard, { socketsPerOrigin: 2, idleMs: 60000, origins: 8, connectTimeoutMs: 5000 });
      const outcome = await postWebhook(process.argv[1], {}, '{}', { timeoutMs: 5000, guard, pools });
      console.log(outcome.status, pools.size);`;
    const started = Date.now();
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, `${r.url}/hook`], { timeout: 20_000 });
    expect(stdout.trim()).toBe('204 1');
    // It ended by itself, long before the idle connection's 60 s were up.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.connections).toBe(1);
  });
});
