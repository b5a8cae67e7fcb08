import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { postWebhook, SendPools } from '../../src/webhooks/sender.js';
import { silent, stallingOk, startRawReceiver, waitFor, type RawReceiver } from './support.js';

const guard = new AddressGuard(['127.0.0.0/8']);
const TIMEOUT_MS = 300;
// A short idle time: undici opens a connection in place of one it dropped (nodejs/undici#5845), and it must not outlive it.
const pools = new SendPools(guard, { socketsPerOrigin: 2, idleMs: 100, origins: 8, connectTimeoutMs: TIMEOUT_MS });
const send = (url: string) => postWebhook(`${url}/hook`, { 'webhook-id': 'msg_test' }, '{}', { timeoutMs: TIMEOUT_MS, guard, pools });

/** Writes `total` bytes of body as fast as the socket takes them; resolves with how many went out. */
function flood(socket: Socket, status: number, total: number): Promise<number> {
  socket.write(`HTTP/1.1 ${status} X\r\ncontent-length: ${total}\r\n\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  return new Promise((resolve) => {
    const pump = () => {
      while (!socket.destroyed && written < total) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      resolve(written);
    };
    socket.once('close', () => resolve(written));
    pump();
  });
}

describe('sending one webhook: every socket has a bound', () => {
  let receiver: RawReceiver | undefined;
  afterEach(async () => {
    await pools.close();
    await receiver?.close();
    receiver = undefined;
  });

  it('closes the connection when a 2xx body never finishes, and counts the 2xx as delivered', async () => {
    receiver = await startRawReceiver(stallingOk);
    const outcome = await send(receiver.url);
    // The deadline is a correctness bound (an unbounded sender keeps such sockets forever).
    await waitFor(() => receiver!.closed >= 1, 'the receiver to see the connection close', 10 * TIMEOUT_MS);
    await waitFor(() => receiver!.open === 0, 'every connection to close', 10 * TIMEOUT_MS);
    expect(receiver.requests).toBe(1);
    expect(outcome.status).toBe(200);
    expect(outcome.error).toMatch(/not finished/);
  });

  it('reads at most a few KB of a 2xx body, then drops the connection', async () => {
    const total = 256 * 1024 * 1024;
    let sent: Promise<number> | undefined;
    receiver = await startRawReceiver((socket) => {
      sent = flood(socket, 200, total);
    });
    const outcome = await send(receiver.url);
    expect(outcome).toMatchObject({ status: 200, error: null });
    await waitFor(() => receiver!.closed >= 1, 'the connection to close');
    expect(await sent).toBeLessThan(total);
  });

  it('bounds a failed answer the same way: a short excerpt, then the connection is closed', async () => {
    const total = 256 * 1024 * 1024;
    receiver = await startRawReceiver((socket) => void flood(socket, 500, total));
    const outcome = await send(receiver.url);
    expect(outcome.status).toBe(500);
    expect(outcome.error).toMatch(/^HTTP 500: x+…$/);
    expect(outcome.error!.length).toBeLessThan(260);
    await waitFor(() => receiver!.closed >= 1, 'the connection to close');
  });

  it('gives up on a receiver that never answers within the time-out', async () => {
    receiver = await startRawReceiver(silent);
    const outcome = await send(receiver.url);
    expect(outcome).toMatchObject({ status: null, error: `timed out after ${TIMEOUT_MS} ms` });
    await waitFor(() => receiver!.closed >= 1, 'the connection to close');
  });

  it('reads a small 2xx body to its end', async () => {
    receiver = await startRawReceiver((socket) => socket.end('HTTP/1.1 204 No Content\r\n\r\n'));
    expect(await send(receiver.url)).toMatchObject({ status: 204, error: null });
    await waitFor(() => receiver!.closed >= 1, 'the connection to close');
  });
});
