import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody } from '../../src/shared/http/read-body.js';

/**
 * readBody (src/shared/http/read-body.ts) on a bare node server, driven byte by byte from a
 * socket: a body in pieces, a body over the limit (all sent, or still arriving), a client gone
 * before its body ended.
 */

type Outcome = { body: string } | { error: { code?: unknown } };

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server answering each request with what readBody gave; resolves its port and the outcomes as they come. */
async function startServer(limit: number): Promise<{ port: number; outcomes: Promise<Outcome>[] }> {
  const outcomes: Promise<Outcome>[] = [];
  server = createServer((req: IncomingMessage, res) => {
    const outcome = readBody(req, limit).then(
      (body): Outcome => ({ body: body.toString('utf8') }),
      // An API error carries its code in its extensions (src/shared/errors.ts); a stream error in `code`.
      (error: { code?: string; extensions?: { code?: unknown } }): Outcome => ({ error: { code: error.extensions?.code ?? error.code } }),
    );
    outcomes.push(outcome);
    void outcome.then((result) => {
      if (res.destroyed) return;
      const text = JSON.stringify(result);
      res.writeHead('error' in result ? 413 : 200, { 'content-length': Buffer.byteLength(text), connection: 'close' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, outcomes };
}

/** Writes the pieces with a pause between them; resolves with all the server answered before it closed. */
function exchange(port: number, pieces: string[], options: { gapMs?: number; endAfter?: boolean } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        await new Promise((r) => setTimeout(r, options.gapMs ?? 20));
      }
      if (options.endAfter) socket.destroy();
    });
  });
}

const chunked = (piece: string) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
const HEAD = 'POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n';

describe('readBody', () => {
  it('joins a body that arrives in pieces, byte for byte', async () => {
    const { port, outcomes } = await startServer(1000);
    const answer = await exchange(port, [HEAD, chunked('{"a":'), chunked('"é"'), chunked('}'), '0\r\n\r\n']);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(await outcomes[0]).toEqual({ body: '{"a":"é"}' });
  });

  it('takes a body that came with its headers as it is, without listening for it, and still reads one that comes later', async () => {
    const listened: string[] = [];
    const bodies: string[] = [];
    server = createServer((req, res) => {
      const on = req.on.bind(req);
      req.on = ((event: string, listener: (...args: unknown[]) => void) => {
        listened.push(event);
        return on(event, listener);
      }) as typeof req.on;
      void readBody(req, 1000).then((body) => {
        bodies.push(body.toString('utf8'));
        res.writeHead(200, { 'content-length': 2, connection: 'close' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const whole = 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 9\r\n\r\n{"a":"é"}'.replace('9', String(Buffer.byteLength('{"a":"é"}')));
    expect(await exchange(port, [whole])).toMatch(/^HTTP\/1\.1 200/);
    expect(bodies).toEqual(['{"a":"é"}']);
    expect(listened.filter((event) => event === 'data')).toEqual([]);
    // Headers first, the body a moment later: read from the stream's events.
    const head = `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${Buffer.byteLength('{"a":"é"}')}\r\n\r\n`;
    expect(await exchange(port, [head, '{"a":', '"é"}'])).toMatch(/^HTTP\/1\.1 200/);
    expect(bodies).toEqual(['{"a":"é"}', '{"a":"é"}']);
    expect(listened.filter((event) => event === 'data')).toEqual(['data']);
  });

  it('refuses a body that has all arrived past the limit with PAYLOAD_TOO_LARGE, and the answer gets through', async () => {
    const { port, outcomes } = await startServer(10);
    const answer = await exchange(port, [HEAD + chunked('x'.repeat(8)) + chunked('x'.repeat(8)) + '0\r\n\r\n']);
    expect(await outcomes[0]).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });

  it('refuses a body still arriving past the limit and closes the connection without waiting for the rest', async () => {
    const { port, outcomes } = await startServer(10);
    const pieces = [HEAD, chunked('x'.repeat(8)), chunked('x'.repeat(8)), ...Array.from({ length: 50 }, () => chunked('y'.repeat(8)))];
    const answer = await exchange(port, pieces, { gapMs: 20 });
    expect(await outcomes[0]).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    // The connection closed long before the 50 pieces (a second) were sent, with nothing answered.
    expect(answer).toBe('');
  });

  it('refuses a body whose client goes away before it ends', async () => {
    const { port, outcomes } = await startServer(1000);
    await exchange(port, [HEAD, chunked('{"a":')], { endAfter: true });
    await expect.poll(() => outcomes.length).toBe(1);
    // node reports the reset ('aborted') where it sees it, else the stream closed before its end.
    expect(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE']).toContain((await outcomes[0] as { error: { code: unknown } }).error.code);
  });
});
