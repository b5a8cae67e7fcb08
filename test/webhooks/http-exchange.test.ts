import { describe, expect, it } from 'vitest';
import { DONE, FRAMING_LIMIT_BYTES, HEAD_LIMIT_BYTES, LIMIT, MALFORMED, MORE, READ_LIMIT_BYTES, requestBytes, ResponseReader, type ReadResult } from '../../src/webhooks/http-exchange.js';

interface Reading {
  result: ReadResult;
  status: number | null;
  keepAlive: boolean;
  body: string;
  problem: string;
  retryAfter: string | undefined;
  idleHintSeconds: number | undefined;
}

/** Feeds `answer` to a new reader in the given pieces; stops at the first result other than MORE, as an exchange does. */
function readPieces(pieces: Buffer[], closeAtEnd = false): Reading {
  const reader = new ResponseReader();
  let result: ReadResult = MORE;
  for (const piece of pieces) {
    result = reader.read(piece);
    if (result !== MORE) break;
  }
  if (result === MORE && closeAtEnd && reader.endedByClose()) result = DONE;
  const { status, keepAlive, problem, retryAfter, idleHintSeconds } = reader;
  return { result, status, keepAlive, body: Buffer.concat(reader.body).toString('latin1'), problem, retryAfter, idleHintSeconds };
}

/** The answer whole, split at every place into two reads, and byte by byte: every way must read alike. */
function readEveryWay(answer: string, closeAtEnd = false): Reading {
  const bytes = Buffer.from(answer, 'latin1');
  const whole = readPieces([bytes], closeAtEnd);
  for (let at = 1; at < bytes.length; at++) {
    expect(readPieces([bytes.subarray(0, at), bytes.subarray(at)], closeAtEnd), `split at ${at}`).toEqual(whole);
  }
  const bytewise = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
  expect(readPieces(bytewise, closeAtEnd), 'byte by byte').toEqual(whole);
  return whole;
}

describe('reading an HTTP/1.1 answer, however it is split into reads', () => {
  it('reads a status line and headers, names in any case, split anywhere (inside CRLFCRLF too)', () => {
    const reading = readEveryWay('HTTP/1.1 204 No Content\r\nDate: Mon, 01 Jan 2026 00:00:00 GMT\r\nKEEP-alive: timeout=5, max=100\r\n\r\n');
    expect(reading).toMatchObject({ result: DONE, status: 204, keepAlive: true, idleHintSeconds: 5 });
  });

  it('reads a body of Content-Length bytes; a 2xx body is not kept, another one is', () => {
    expect(readEveryWay('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello')).toMatchObject({ result: DONE, status: 200, keepAlive: true, body: '' });
    expect(readEveryWay('HTTP/1.1 503 Busy\r\nContent-Length: 4\r\nRetry-After: 120\r\nretry-after: 7\r\n\r\nbusy')).toMatchObject({
      result: DONE,
      status: 503,
      keepAlive: true,
      body: 'busy',
      retryAfter: '120',
    });
    // The same length repeated is one length.
    expect(readEveryWay('HTTP/1.1 500 X\r\nContent-Length: 3, 3\r\ncontent-length: 3\r\n\r\nabc')).toMatchObject({ result: DONE, body: 'abc' });
    expect(readEveryWay('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')).toMatchObject({ result: DONE, status: 200, keepAlive: true });
  });

  it('reads a chunked body with chunk extensions and trailers', () => {
    const answer = 'HTTP/1.1 500 Oops\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n5;name=value;flag\r\nhello\r\n1A ; x="y"\r\n' + 'x'.repeat(26) + '\r\n0;last\r\nX-Trailer: 1\r\nServer-Timing: db;dur=53\r\n\r\n';
    expect(readEveryWay(answer)).toMatchObject({ result: DONE, status: 500, keepAlive: true, body: `hello${'x'.repeat(26)}` });
    expect(readEveryWay('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n')).toMatchObject({ result: DONE, status: 200, keepAlive: true });
  });

  it('skips interim answers (100 Continue, 103 Early Hints) and reads the final one', () => {
    const reading = readEveryWay('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n');
    expect(reading).toMatchObject({ result: DONE, status: 204, keepAlive: true });
    expect(readPieces([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n')])).toMatchObject({ result: MORE, status: null });
  });

  it('reads no body after 204 and 304, whatever length they announce', () => {
    expect(readEveryWay('HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n')).toMatchObject({ result: DONE, status: 204, keepAlive: true });
    expect(readEveryWay('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n')).toMatchObject({ result: DONE, status: 304, keepAlive: true });
  });

  it('reads a body without a length until the connection ends, and never reuses that connection', () => {
    const reading = readEveryWay('HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\n\r\nupstream down', true);
    expect(reading).toMatchObject({ result: DONE, status: 502, keepAlive: false, body: 'upstream down' });
    // A coding other than chunked last leaves only the end of the connection to end the body.
    expect(readEveryWay('HTTP/1.1 500 X\r\nTransfer-Encoding: gzip\r\n\r\nzz', true)).toMatchObject({ result: DONE, keepAlive: false, body: 'zz' });
    // A connection ending under a body of known length does not end that body.
    const cut = new ResponseReader();
    expect(cut.read(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'))).toBe(MORE);
    expect(cut.endedByClose()).toBe(false);
  });

  it('keeps a connection only when the answer allows it', () => {
    expect(readEveryWay('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n')).toMatchObject({ result: DONE, keepAlive: false });
    expect(readEveryWay('HTTP/1.1 204 No Content\r\nConnection: Upgrade, CLOSE\r\n\r\n')).toMatchObject({ result: DONE, keepAlive: false });
    expect(readEveryWay('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok')).toMatchObject({ result: DONE, status: 200, keepAlive: false });
    expect(readEveryWay('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok')).toMatchObject({ result: DONE, keepAlive: true });
  });

  it('marks bytes after the end of an answer: the connection is not reused', () => {
    expect(readPieces([Buffer.from('HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\n\r\n')])).toMatchObject({ result: DONE, status: 204, keepAlive: false });
    expect(readPieces([Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokX')])).toMatchObject({ result: DONE, keepAlive: false });
    expect(readPieces([Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n\r\n')])).toMatchObject({ result: DONE, keepAlive: false });
  });

  it('reads obsolete line folding as one value', () => {
    expect(readEveryWay('HTTP/1.1 204 No Content\r\nConnection: keep-alive,\r\n close\r\n\r\n')).toMatchObject({ result: DONE, keepAlive: false });
  });

  it('accepts a status line without a reason phrase', () => {
    expect(readEveryWay('HTTP/1.1 204\r\n\r\n')).toMatchObject({ result: DONE, status: 204 });
    expect(readEveryWay('HTTP/1.1 204 \r\n\r\n')).toMatchObject({ result: DONE, status: 204 });
  });

  it.each([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200 OK\r\n\r\n', /status line/],
    ['a status line with a short code', 'HTTP/1.1 20 OK\r\n\r\n', /status line/],
    ['a status code below 100', 'HTTP/1.1 099 Odd\r\n\r\n', /status line/],
    ['garbage instead of an answer', 'SSH-2.0-OpenSSH_9.6\r\n\r\n', /status line/],
    ['a bare LF in the header section', 'HTTP/1.1 200 OK\r\nContent-Length: 0\nX: y\r\n\r\n', /header field/],
    ['a bare CR in a value', 'HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n', /header field/],
    ['a NUL in a value', 'HTTP/1.1 200 OK\r\nX: a\u0000b\r\n\r\n', /header field/],
    ['white space before the colon', 'HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n', /header field/],
    ['a line without a colon', 'HTTP/1.1 200 OK\r\nnonsense\r\n\r\n', /header field/],
    ['a fold before any field', 'HTTP/1.1 200 OK\r\n folded\r\n\r\n', /header field/],
    ['conflicting Content-Length values', 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello', /conflicting content-length/],
    ['conflicting values in one Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello', /conflicting content-length/],
    ['a negative Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /invalid content-length/],
    ['a Content-Length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n', /invalid content-length/],
    ['a huge Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n', /invalid content-length/],
    ['both Transfer-Encoding and Content-Length', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n', /both/],
    ['chunked before another coding', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n', /chunked is not the last/],
    ['a 101 that was never asked for', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n', /101/],
  ])('refuses %s (no status: the answer was not understood)', (_what, answer, problem) => {
    const reading = readEveryWay(answer);
    expect(reading.result).toBe(MALFORMED);
    expect(reading.status).toBeNull();
    expect(reading.problem).toMatch(problem);
  });

  it.each([
    ['a chunk size that is not hex', 'zz\r\n', /chunk size/],
    ['a chunk size too large to count', 'fffffffffffffffff\r\n', /chunk size/],
    ['chunk data not followed by CRLF', '2\r\nokX\r\n0\r\n\r\n', /CRLF/],
    ['a chunk size line ended by a bare LF', '2\n', /CRLF/],
    ['a malformed trailer', '0\r\nno colon here\r\n\r\n', /trailer/],
  ])('refuses a chunked body with %s, keeping the status that came before it', (_what, body, problem) => {
    const reading = readEveryWay(`HTTP/1.1 500 X\r\nTransfer-Encoding: chunked\r\n\r\n${body}`);
    expect(reading).toMatchObject({ result: MALFORMED, status: 500 });
    expect(reading.problem).toMatch(problem);
  });

  it('refuses a header section beyond the limit, interim answers counted in it', () => {
    const big = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(HEAD_LIMIT_BYTES)}\r\n\r\n`;
    expect(readPieces([Buffer.from(big)])).toMatchObject({ result: MALFORMED, status: null, problem: expect.stringMatching(/too large/) });
    // Arriving in small reads it is refused all the same, without waiting for its end.
    const pieces = Array.from({ length: Math.ceil(big.length / 100) }, (_, i) => Buffer.from(big.slice(i * 100, i * 100 + 100)));
    const reader = new ResponseReader();
    const results = pieces.map((piece) => reader.read(piece));
    expect(results.indexOf(MALFORMED)).toBeLessThanOrEqual(Math.ceil(HEAD_LIMIT_BYTES / 100));
    const hints = `HTTP/1.1 103 Early Hints\r\nLink: ${'b'.repeat(HEAD_LIMIT_BYTES / 2)}\r\n\r\n`.repeat(2);
    expect(readPieces([Buffer.from(`${hints}HTTP/1.1 204 No Content\r\n\r\n`)])).toMatchObject({ result: MALFORMED, status: null, problem: expect.stringMatching(/too large/) });
    // Just under the limit is read.
    const fits = `HTTP/1.1 204 No Content\r\nX: ${'c'.repeat(HEAD_LIMIT_BYTES - 100)}\r\n\r\n`;
    expect(readPieces([Buffer.from(fits)])).toMatchObject({ result: DONE, status: 204 });
  });

  it('stops at the read limit: a body is read to READ_LIMIT_BYTES and no further', () => {
    const exact = readPieces([Buffer.from(`HTTP/1.1 500 X\r\nContent-Length: ${READ_LIMIT_BYTES}\r\n\r\n${'e'.repeat(READ_LIMIT_BYTES)}`)]);
    expect(exact).toMatchObject({ result: DONE, keepAlive: true });
    const over = readPieces([Buffer.from(`HTTP/1.1 500 X\r\nContent-Length: ${READ_LIMIT_BYTES + 1}\r\n\r\n${'e'.repeat(READ_LIMIT_BYTES + 1)}`)]);
    expect(over).toMatchObject({ result: LIMIT, status: 500, body: 'e'.repeat(READ_LIMIT_BYTES) });
    const chunked = readPieces([Buffer.from('HTTP/1.1 500 X\r\nTransfer-Encoding: chunked\r\n\r\n'), Buffer.from(`1001\r\n${'f'.repeat(0x1001)}\r\n`)]);
    expect(chunked).toMatchObject({ result: LIMIT, body: 'f'.repeat(READ_LIMIT_BYTES) });
    const unbounded = readPieces([Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), Buffer.alloc(READ_LIMIT_BYTES + 1)]);
    expect(unbounded).toMatchObject({ result: LIMIT, status: 200 });
  });

  it('stops when a chunked body’s framing outgrows its limit, however small the data', () => {
    const reader = new ResponseReader();
    expect(reader.read(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'))).toBe(MORE);
    expect(reader.read(Buffer.from(`1;${'x'.repeat(FRAMING_LIMIT_BYTES)}`))).toBe(LIMIT);
    const trailers = new ResponseReader();
    expect(trailers.read(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n'))).toBe(MORE);
    let result: ReadResult = MORE;
    for (let i = 0; i < 2000 && result === MORE; i++) result = trailers.read(Buffer.from(`X-T${i}: 1\r\n`));
    expect(result).toBe(LIMIT);
  });
});

describe('writing the request', () => {
  const parts = { path: '/hooks/1?x=1', host: 'example.com:8080', auth: undefined, close: false };

  it('writes the request line, Host, the given headers, its own, then the body, in UTF-8', () => {
    const body = JSON.stringify({ name: 'Zoë ✓' });
    const text = requestBytes(parts, { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000' }, body).toString('utf8');
    expect(text).toBe(
      'POST /hooks/1?x=1 HTTP/1.1\r\nHost: example.com:8080\r\nwebhook-id: msg_1\r\nwebhook-timestamp: 1700000000\r\n' +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nuser-agent: shiftgate-webhooks/1\r\n\r\n${body}`,
    );
  });

  it('asks for the connection to close when it is not kept, and sends the URI’s credentials as Basic', () => {
    const text = requestBytes({ ...parts, auth: 'user:pä ss', close: true }, {}, '{}').toString('latin1');
    expect(text).toContain(`\r\nAuthorization: Basic ${Buffer.from('user:pä ss').toString('base64')}\r\n`);
    expect(text).toMatch(/\r\nconnection: close\r\n\r\n\{\}$/);
  });

  it('leaves out a given header that would contradict its own (length, type, host)', () => {
    const text = requestBytes(parts, { 'Content-Length': '1', HOST: 'elsewhere', 'x-ok': 'yes' }, '{}').toString('latin1');
    expect(text.match(/content-length/gi)).toHaveLength(1);
    expect(text).not.toContain('elsewhere');
    expect(text).toContain('x-ok: yes');
  });

  it.each([
    ['a CR LF in a value', { 'webhook-id': 'a\r\nX-Injected: 1' }],
    ['a LF in a value', { 'webhook-id': 'a\nb' }],
    ['a NUL in a value', { 'webhook-id': 'a\u0000b' }],
    ['a character beyond latin1', { 'webhook-id': 'a\u2028b' }],
    ['a CR LF in a name', { 'x\r\ny': '1' }],
    ['a space in a name', { 'x y': '1' }],
    ['an empty name', { '': '1' }],
  ])('refuses %s, writing nothing', (_what, headers) => {
    expect(() => requestBytes(parts, headers, '{}')).toThrow(/Invalid character in header content|Header name must be a valid HTTP token/);
  });
});
