import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, expectFailure } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { subscriptionRows } from '../rest/http.js';

/** Sends exact bytes (fetch would re-encode a string as UTF-8). */
async function sendBytes(t: TestApp, method: string, path: string, bytes: Uint8Array, contentType: string, token?: string) {
  const headers: Record<string, string> = { 'external-gh-apim-sub-key': SUB_KEY, 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(t.baseUrl + path, { method, headers, body: new Uint8Array(bytes) });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const withPrefix = (prefix: number[], bytes: Uint8Array) => new Uint8Array([...prefix, ...bytes]);
const utf16le = (text: string, bom = true) => withPrefix(bom ? [0xff, 0xfe] : [], new Uint8Array(Buffer.from(text, 'utf16le')));
const utf16be = (text: string, bom = true) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return withPrefix(bom ? [0xfe, 0xff] : [], new Uint8Array(le));
};
const utf32le = (text: string, bom = true) => {
  const out: number[] = bom ? [0xff, 0xfe, 0x00, 0x00] : [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out.push(cp & 0xff, (cp >> 8) & 0xff, (cp >> 16) & 0xff, 0);
  }
  return new Uint8Array(out);
};
const utf32be = (text: string) => {
  const le = utf32le(text, false);
  for (let i = 0; i < le.length; i += 4) le.subarray(i, i + 4).reverse();
  return le;
};

const JSON_TYPE = 'application/json';

describe('request bodies are UTF-8 or refused with 415', () => {
  let t: TestApp;
  let token: string;
  let n = 0;
  const createBody = () => JSON.stringify({ subscriberId: 301, uri: `https://hooks.example.com/caf\u00e9/${++n}` });
  const asciiBody = () => JSON.stringify({ subscriberId: 301, uri: `https://hooks.example.com/cafe/${++n}` });
  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const refusals: [string, () => Uint8Array, string][] = [
    ['a declared charset=iso-8859-1 (with Latin-1 bytes)', () => latin1(createBody()), `${JSON_TYPE}; charset=iso-8859-1`],
    ['a declared charset=ISO-8859-1 even when the bytes are ASCII', () => utf8(JSON.stringify({ subscriberId: 301, uri: `https://hooks.example.com/${++n}` })), `${JSON_TYPE}; charset=ISO-8859-1`],
    ['a declared charset=windows-1252', () => latin1(createBody()), `${JSON_TYPE};charset=windows-1252`],
    ['a declared quoted charset="latin1"', () => latin1(createBody()), `${JSON_TYPE}; charset="latin1"`],
    ['a declared charset=utf-16', () => utf16le(createBody()), `${JSON_TYPE}; charset=utf-16`],
    ['undeclared Latin-1 bytes (invalid UTF-8)', () => latin1(createBody()), JSON_TYPE],
    ['an overlong UTF-8 sequence', () => withPrefix([], new Uint8Array([...utf8('{"subscriberId":301,"uri":"https://hooks.example.com/'), 0xc0, 0xaf, ...utf8('"}')])), JSON_TYPE],
    ['a UTF-8-encoded surrogate', () => new Uint8Array([...utf8('{"subscriberId":301,"uri":"https://hooks.example.com/'), 0xed, 0xa0, 0x80, ...utf8('"}')]), JSON_TYPE],
    ['UTF-16LE with a byte order mark', () => utf16le(createBody()), JSON_TYPE],
    ['UTF-16BE with a byte order mark', () => utf16be(createBody()), JSON_TYPE],
    ['UTF-16LE without a byte order mark', () => utf16le(createBody(), false), JSON_TYPE],
    ['UTF-32LE with a byte order mark', () => utf32le(createBody()), JSON_TYPE],
    // ASCII text without a byte order mark is valid UTF-8 byte by byte (its zeros are NUL
    // characters): only where the first four bytes have zeros tells the encoding.
    ['ASCII UTF-16LE without a byte order mark', () => utf16le(asciiBody(), false), JSON_TYPE],
    ['ASCII UTF-16BE without a byte order mark', () => utf16be(asciiBody(), false), JSON_TYPE],
    ['ASCII UTF-32LE without a byte order mark', () => utf32le(asciiBody(), false), JSON_TYPE],
    ['ASCII UTF-32BE without a byte order mark', () => utf32be(asciiBody()), JSON_TYPE],
  ];

  it.each(refusals)('refuses %s on a REST write with a 415 envelope and writes nothing', async (_what, bytes, contentType) => {
    const before = await subscriptionRows(t);
    const res = await sendBytes(t, 'POST', '/api/webhook/subscriptions', bytes(), contentType, token);
    expectFailure(res, 415);
    expect(await subscriptionRows(t)).toEqual(before);
  });

  it('refuses a Latin-1 update (PUT) and leaves the stored URI as it was', async () => {
    const created = expectEnvelope(await t.request('POST', '/api/webhook/subscriptions', { token, body: { subscriberId: 301, uri: `https://hooks.example.com/put/${++n}` } }), 201);
    const before = await subscriptionRows(t);
    const res = await sendBytes(t, 'PUT', `/api/webhook/subscriptions/${created.data.id}`, latin1(JSON.stringify({ uri: 'https://hooks.example.com/ol\u00e9' })), JSON_TYPE, token);
    expectFailure(res, 415);
    expect(await subscriptionRows(t)).toEqual(before);
  });

  it('accepts UTF-8 with or without a byte order mark, and charset=utf-8 / utf8 in any case; stores the text exactly', async () => {
    for (const [bytes, contentType] of [
      [(s: string) => utf8(s), JSON_TYPE],
      [(s: string) => withPrefix(UTF8_BOM, utf8(s)), JSON_TYPE],
      [(s: string) => utf8(s), `${JSON_TYPE}; charset=UTF-8`],
      [(s: string) => utf8(s), `${JSON_TYPE}; charset="utf8"`],
    ] as const) {
      const uri = `https://hooks.example.com/caf\u00e9/\u6771\u4eac/${++n}`;
      const res = await sendBytes(t, 'POST', '/api/webhook/subscriptions', bytes(JSON.stringify({ subscriberId: 301, uri })), contentType, token);
      const env = expectEnvelope(res, 201);
      expect(env.data.uri).toBe(uri);
      const row = await t.app.db('subscriptions').where({ id: env.data.id }).first();
      expect(row.uri).toBe(uri);
    }
  });

  it('refuses a non-UTF-8 body on the token endpoint with a 415 envelope', async () => {
    const { apiKey } = await t.key({ type: 'developer', companyId: 1 });
    expectFailure(await sendBytes(t, 'POST', '/api/external/token/request', utf8(JSON.stringify({ apiKey })), `${JSON_TYPE}; charset=iso-8859-1`), 415);
    expectFailure(await sendBytes(t, 'POST', '/api/external/token/request', utf16le(JSON.stringify({ apiKey })), JSON_TYPE), 415);
    expectFailure(await sendBytes(t, 'POST', '/api/external/token/request', latin1(JSON.stringify({ apiKey: `${apiKey}\u00e9` })), JSON_TYPE), 415);
    expectEnvelope(await sendBytes(t, 'POST', '/api/external/token/request', withPrefix(UTF8_BOM, utf8(JSON.stringify({ apiKey }))), JSON_TYPE), 200);
  });

  it('refuses a non-UTF-8 page-parameter body on a GET with a 415 envelope', async () => {
    // A GET's body is only a page parameter; it is judged like any other body.
    const { request } = await import('node:http');
    const url = new URL('/api/external/staffs/1001/licenses?pageSize=1', t.baseUrl);
    const send = (bytes: Buffer, contentType: string) =>
      new Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
        const req = request(
          { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', headers: { 'external-gh-apim-sub-key': SUB_KEY, authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': bytes.length } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
          },
        );
        req.on('error', reject);
        req.end(bytes);
      });
    expectFailure(await send(Buffer.from('after=caf\u00e9', 'latin1'), 'text/plain'), 415);
    expectFailure(await send(Buffer.from('after=abc', 'utf8'), 'text/plain; charset=iso-8859-1'), 415);
  });

  it('refuses a non-UTF-8 /graphql POST body with a 415 GraphQL error and writes nothing', async () => {
    const mutation = `mutation { createEventSubscription(input: { subscriberId: 301, uri: "https://hooks.example.com/gql-caf\u00e9" }) { eventSubscription { id } } }`;
    for (const [bytes, contentType] of [
      [latin1(JSON.stringify({ query: mutation })), JSON_TYPE],
      [utf8(JSON.stringify({ query: '{ __typename }' })), `${JSON_TYPE}; charset=iso-8859-1`],
      [utf16le(JSON.stringify({ query: '{ __typename }' })), JSON_TYPE],
    ] as const) {
      const before = await subscriptionRows(t);
      const res = await sendBytes(t, 'POST', '/graphql', bytes, contentType, token);
      expect(res.status).toBe(415);
      expect(res.body.errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await subscriptionRows(t)).toEqual(before);
    }
  });

  it('accepts a /graphql POST body with a UTF-8 byte order mark', async () => {
    const res = await sendBytes(t, 'POST', '/graphql', withPrefix(UTF8_BOM, utf8(JSON.stringify({ query: '{ __typename }' }))), `${JSON_TYPE}; charset=utf-8`, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });
});
