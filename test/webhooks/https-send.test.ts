import { createServer as createNetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { postWebhook, SendPools } from '../../src/webhooks/sender.js';
import { checkingGuard, listenOnLoopback, waitFor } from './support.js';

// A self-signed certificate for localhost and 127.0.0.1, valid until 2126: trusted by nothing,
// so a send verifies it and fails unless a test turns verification off.
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmioE5Lb1U1bxQ4sI
mZFOPww+3X6O5zL5zIJ/E3XeEUWhRANCAASxUCizwFQkMs4O7EAXPdimrKUX9B35
etjvOXwt51q2BeN+DWFRX6WE09XWt5RB65IkncOV3v0ISiZrdVFB8Mb9
-----END PRIVATE KEY-----`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUHfzAB5RHd28LL2JFSXEodZXHCjEwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNjEwMTYyN1oYDzIxMjYxMTAy
MTAxNjI3WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASxUCizwFQkMs4O7EAXPdimrKUX9B35etjvOXwt51q2BeN+DWFRX6WE
09XWt5RB65IkncOV3v0ISiZrdVFB8Mb9o28wbTAdBgNVHQ4EFgQUY5VXtOFJu6hm
lNe4oKiMWBAQzeUwHwYDVR0jBBgwFoAUY5VXtOFJu6hmlNe4oKiMWBAQzeUwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSQAwRgIhAPSMQ99wKiZsPtmrLg3oC8k+zzMZdmnjynVal0hxFi2IAiEA
wZDW8tF+wP82ZDVx3dhER2Bi/tyWE8izAOoCxdwml7E=
-----END CERTIFICATE-----`;

const loopback = new AddressGuard(['127.0.0.0/8']);
const limits = { socketsPerOrigin: 1, idleMs: 60_000, origins: 8, connectTimeoutMs: 2000 };

interface TlsReceiver {
  port: number;
  /** The server name each finished handshake asked for (false without one). */
  names: (string | false)[];
  /** The server names asked for by every handshake begun, finished or not. */
  asked: string[];
  /** Whether each finished handshake resumed an earlier session. */
  resumed: boolean[];
  requests: number;
  close(): Promise<void>;
}

/** An HTTPS receiver on raw TLS that answers every request with 204 (and `extra` headers), keeping the connection unless they say otherwise. */
async function tlsReceiver(extra = ''): Promise<TlsReceiver> {
  const sockets = new Set<Socket>();
  const state = { names: [] as (string | false)[], asked: [] as string[], resumed: [] as boolean[], requests: 0 };
  const SNICallback = (name: string, done: (error: Error | null) => void) => {
    state.asked.push(name);
    done(null);
  };
  const server = createTlsServer({ key: KEY, cert: CERT, SNICallback }, (socket: TLSSocket) => {
    state.names.push(socket.servername ?? false);
    state.resumed.push(socket.isSessionReused());
    socket.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf('POST '); at !== -1; at = chunk.indexOf('POST ', at + 1)) {
        state.requests++;
        socket.write(`HTTP/1.1 204 No Content\r\n${extra}\r\n`);
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);
  const { url, close } = await listenOnLoopback(server, sockets);
  return Object.assign(state, { port: Number(new URL(url).port), close });
}

describe('sending over https', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function receiver(extra?: string) {
    const r = await tlsReceiver(extra);
    cleanup.push(() => r.close());
    return r;
  }
  function pool(guard = loopback) {
    const p = new SendPools(guard, limits);
    cleanup.push(() => p.close());
    return p;
  }
  /** Runs `step` with certificate verification off, as only a test may. */
  async function unverified<T>(step: () => Promise<T>): Promise<T> {
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const warn = process.emitWarning;
    process.emitWarning = () => undefined;
    try {
      return await step();
    } finally {
      process.emitWarning = warn;
      if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
    }
  }
  const send = (url: string, p: SendPools, guard = loopback) => postWebhook(url, { 'webhook-id': 'msg_tls' }, '{}', { timeoutMs: 2000, guard, pools: p });

  it('verifies the receiver’s certificate, naming the host it connects to', async () => {
    const r = await receiver();
    const outcome = await send(`https://localhost:${r.port}/hook`, pool());
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/self-signed certificate/) });
    expect(r.asked).toEqual(['localhost']);
    expect(r.names).toEqual([]);
    expect(r.requests).toBe(0);
  });

  it('reuses one TLS connection for sends one after another, and names no server for an address', async () => {
    const r = await receiver();
    const p = pool();
    await unverified(async () => {
      for (let i = 0; i < 3; i++) expect(await send(`https://localhost:${r.port}/hook`, p)).toMatchObject({ status: 204, error: null });
      expect(await send(`https://127.0.0.1:${r.port}/hook`, p)).toMatchObject({ status: 204, error: null });
    });
    expect(r.requests).toBe(4);
    // One connection per origin: localhost and 127.0.0.1 are two.
    expect(r.names).toEqual(['localhost', false]);
    expect(p.size).toBe(2);
  });

  it('resumes the origin’s TLS session on its next new connection', async () => {
    const r = await receiver('Connection: close\r\n');
    const p = pool();
    await unverified(async () => {
      for (let i = 0; i < 3; i++) expect(await send(`https://localhost:${r.port}/hook`, p)).toMatchObject({ status: 204, error: null });
    });
    expect(r.resumed).toEqual([false, true, true]);
  });

  it('sends not even a TLS handshake to an address the guard refuses once connected', async () => {
    const received: Buffer[] = [];
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    });
    const { url, close } = await listenOnLoopback(server, sockets);
    cleanup.push(close);
    // Resolves the name to loopback, then refuses the address the socket reached.
    const { guard, checked } = checkingGuard(loopback, () => 'refused by the test');
    const outcome = await send(`https://localhost:${new URL(url).port}/hook`, pool(guard), guard);
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/refused by the test/) });
    expect(checked).toEqual(['127.0.0.1']);
    await waitFor(() => sockets.size === 0, 'the refused connection to close', 5000);
    expect(Buffer.concat(received).length).toBe(0);
  });
});
