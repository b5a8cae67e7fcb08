import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../support/envelope.js';
import { SUB_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { rawRequest, withoutWrites } from '../rest/http.js';

/** Sends raw bytes and resolves with everything the server answered before closing. */
function rawExchange(t: TestApp, send: (write: (chunk: string) => void) => void, waitMs = 5000): Promise<string> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, waitMs);
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', reject);
    socket.on('connect', () => send((chunk) => socket.write(chunk)));
  });
}

/**
 * Writes `pieces` one after another (pausing `gapMs` between them) and resolves with whatever the
 * server answered; a server that closes while the client is still sending is not an error here.
 */
function sendPieces(t: TestApp, pieces: string[], gapMs = 0): Promise<string> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

function piecesOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function envelopeOf(raw: string): { status: number; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
  return { status, body };
}

describe('HTTP limits', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { BODY_LIMIT_BYTES: '2048', MAX_URL_LENGTH: '512', MAX_HEADER_BYTES: '4096', REQUEST_TIMEOUT_MS: '400', HEADERS_TIMEOUT_MS: '400' } });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it('refuses a REST body over BODY_LIMIT_BYTES with a 413 envelope and writes nothing', async () => {
    const res = await withoutWrites(t, () =>
      t.request('POST', '/api/webhook/subscriptions', { token, body: { subscriberId: 301, uri: 'https://example.com/' + 'a'.repeat(3000) } }),
    );
    expectFailure(res, 413);
  });

  it('refuses a chunked REST body (no content-length) that grows past the limit', async () => {
    const raw = await rawExchange(t, (write) => {
      write(
        `POST /api/webhook/subscriptions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n` +
          `external-gh-apim-sub-key: ${SUB_KEY}\r\nauthorization: Bearer ${token}\r\nconnection: close\r\n\r\n`,
      );
      const chunk = 'x'.repeat(1500);
      write(`${chunk.length.toString(16)}\r\n${chunk}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`);
    });
    const { status, body } = envelopeOf(raw);
    expect(status).toBe(413);
    expectFailure({ status, headers: { 'content-type': 'application/json' }, body }, 413);
  });

  it('refuses a /graphql body over the limit with a 413 GraphQL error', async () => {
    const res = await t.request('POST', '/graphql', { token, body: { query: `{ __typename ${' '.repeat(3000)} }` } });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses an over-long URL with 414 in the envelope', async () => {
    const res = await t.request('GET', `/api/external/timesheets/9001?pad=${'a'.repeat(600)}`, { token });
    expectFailure(res, 414);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses a request target longer than the header limit with 414, not 431', async () => {
    // MAX_URL_LENGTH 512, MAX_HEADER_BYTES 4096: these targets are far past both.
    for (const length of [5_000, 20_000, 1_000_000]) {
      const raw = await sendPieces(t, [`GET /api/external/timesheets/9001?pad=${'a'.repeat(length)} HTTP/1.1\r\nhost: x\r\n\r\n`]);
      const { status, body } = envelopeOf(raw);
      expect(status, `target of ${length}`).toBe(414);
      expectFailure({ status, headers: { 'content-type': 'application/json' }, body }, 414);
    }
  });

  it('refuses a long request target with 414 when it arrives in small pieces', async () => {
    const request = `GET /api/external/timesheets/9001?pad=${'a'.repeat(12_000)} HTTP/1.1\r\nhost: x\r\n\r\n`;
    const { status } = envelopeOf(await sendPieces(t, piecesOf(request, 700), 2));
    expect(status).toBe(414);
  });

  it('refuses oversized headers with 431 when they arrive in small pieces', async () => {
    const request = `GET /healthz HTTP/1.1\r\nhost: x\r\nx-junk: ${'a b '.repeat(3000)}\r\n\r\n`;
    const { status } = envelopeOf(await sendPieces(t, piecesOf(request, 700), 2));
    expect(status).toBe(431);
  });

  it('judges the request target and the headers each against its own limit', async () => {
    // A target just under MAX_URL_LENGTH plus headers just under MAX_HEADER_BYTES is fine,
    // although together they are more than either limit.
    const target = `/healthz?pad=${'a'.repeat(480)}`;
    const ok = envelopeOf(await sendPieces(t, [`GET ${target} HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(3900)}\r\nconnection: close\r\n\r\n`]));
    expect(ok.status).toBe(200);
    // Headers over MAX_HEADER_BYTES are 431 whatever the target; a long target with small headers is 414.
    const headers = await sendPieces(t, [`GET ${target} HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(4200)}\r\nconnection: close\r\n\r\n`]);
    expect(envelopeOf(headers).status).toBe(431);
    const justOver = await sendPieces(t, [`GET /healthz HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(4100)}\r\nconnection: close\r\n\r\n`]);
    expect(envelopeOf(justOver).status).toBe(431);
    expect(justOver).toMatch(/\r\nx-request-id: /i);
    const url = envelopeOf(await sendPieces(t, [`GET ${target}${'a'.repeat(600)} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`]));
    expect(url.status).toBe(414);
  });

  it('refuses oversized headers with 431 in the envelope', async () => {
    const raw = await rawExchange(t, (write) =>
      write(`GET /api/external/timesheets/9001 HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(8000)}\r\n\r\n`),
    );
    const { status, body } = envelopeOf(raw);
    expect(status).toBe(431);
    expectFailure({ status, headers: { 'content-type': 'application/json' }, body }, 431);
  });

  it('times out a slow body with 408 in the envelope', async () => {
    const raw = await rawExchange(t, (write) => {
      write(
        `POST /api/webhook/subscriptions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n` +
          `external-gh-apim-sub-key: ${SUB_KEY}\r\nauthorization: Bearer ${token}\r\n\r\n{"subscriberId":`,
      );
    });
    const { status, body } = envelopeOf(raw);
    expect(status).toBe(408);
    expectFailure({ status, headers: { 'content-type': 'application/json' }, body }, 408);
  });
});

describe('HTTP limits at their defaults (MAX_URL_LENGTH 8192, MAX_HEADER_BYTES 16384)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers a URL over 16 KB with 414, headers over 16 KiB with 431, and lets both just under their limits through', async () => {
    const longUrl = await sendPieces(t, [`GET /healthz?pad=${'a'.repeat(17_000)} HTTP/1.1\r\nhost: x\r\n\r\n`]);
    expect(envelopeOf(longUrl).status).toBe(414);
    const bigHeaders = await sendPieces(t, [`GET /healthz HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(17_000)}\r\n\r\n`]);
    expect(envelopeOf(bigHeaders).status).toBe(431);
    const both = await sendPieces(t, [
      `GET /healthz?pad=${'a'.repeat(8000)} HTTP/1.1\r\nhost: x\r\nx-junk: ${'a'.repeat(16_000)}\r\nconnection: close\r\n\r\n`,
    ]);
    expect(envelopeOf(both).status).toBe(200);
  });
});

describe('GraphQL limits', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({
      env: { GRAPHQL_MAX_DEPTH: '5', GRAPHQL_MAX_ALIASES: '3', GRAPHQL_MAX_COST: '200', GRAPHQL_MAX_DIRECTIVES: '3', GRAPHQL_MAX_TOKENS: '120', GRAPHQL_BATCH_LIMIT: '2' },
    });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  const refused = (body: any) => {
    expect(body.data ?? null).toBeNull();
    expect(body.errors.length).toBeGreaterThan(0);
  };

  it('answers a query within the limits', async () => {
    const res = await t.graphql(token, '{ staff(employeeId: 1001) { firstName licenses(first: 2) { edges { node { licenseNumber } } } } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.staff.licenses.edges).toHaveLength(2);
  });

  it('refuses a query deeper than GRAPHQL_MAX_DEPTH', async () => {
    const res = await t.graphql(
      token,
      '{ staff(employeeId: 1001) { licenses(first: 1) { edges { node { employeeSecurityLicenseInfo { currentStatus } } } pageInfo { hasNextPage } } } }',
    );
    refused(res.body);
    expect(JSON.stringify(res.body)).toMatch(/depth/i);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES', async () => {
    const res = await t.graphql(token, '{ a: staff(employeeId: 1001) { firstName } b: staff(employeeId: 1001) { firstName } c: staff(employeeId: 1001) { firstName } d: staff(employeeId: 1001) { firstName } }');
    refused(res.body);
    expect(JSON.stringify(res.body)).toMatch(/alias/i);
  });

  it('refuses more directives than GRAPHQL_MAX_DIRECTIVES', async () => {
    const res = await t.graphql(token, '{ __typename @skip(if: false) @skip(if: false) @skip(if: false) @skip(if: false) }');
    refused(res.body);
  });

  it('refuses a query costlier than GRAPHQL_MAX_COST', async () => {
    const fields = 'firstName lastName staffId email mobile employeeReferenceNumber';
    const res = await t.graphql(token, `{ staff(employeeId: 1001) { ${fields} licenses(first: 5) { edges { node { securityLicenseId licenseNumber status state expiryDate reminder critical attachmentLink licenceSector isInvalidLicense } } } } }`);
    refused(res.body);
    expect(JSON.stringify(res.body)).toMatch(/cost/i);
  });

  it('counts page sizes passed as variables, and refuses a costly request without running it', async () => {
    const query = 'query ($n: Int) { staff(employeeId: 1001) { firstName licenses(first: $n) { edges { node { licenseNumber status state expiryDate } } } } }';
    const cheap = await t.graphql(token, query, { n: 2 });
    expect(cheap.body.errors).toBeUndefined();
    expect(cheap.body.data.staff.licenses.edges).toHaveLength(2);
    const costly = await t.graphql(token, query, { n: 40 });
    refused(costly.body);
    expect(costly.body.errors.map((e: any) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(costly.body.errors[0].message).toMatch(/cost limit of 200 exceeded/i);
  });

  it('refuses a document with more tokens than GRAPHQL_MAX_TOKENS', async () => {
    const res = await t.graphql(token, `{ ${Array.from({ length: 150 }, () => '__typename').join(' ')} }`);
    refused(res.body);
    expect(JSON.stringify(res.body)).toMatch(/token/i);
  });

  it('caps batched requests at GRAPHQL_BATCH_LIMIT', async () => {
    const one = { query: '{ __typename }' };
    const ok = await t.request('POST', '/graphql', { token, body: [one, one] });
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(2);
    const tooMany = await t.request('POST', '/graphql', { token, body: [one, one, one] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.length).toBeGreaterThan(0);
  });

  /*
   * One status per kind of refusal and media type, as GraphQL over HTTP asks: a document refused
   * before execution (it does not parse, fails validation, or exceeds a GraphQL Armor limit) has
   * no `data`, and is HTTP 400 under application/graphql-response+json, 200 under the legacy
   * application/json (and any-type Accept, which means it); the code says which (GRAPHQL_PARSE_FAILED, or
   * GRAPHQL_VALIDATION_FAILED for schema rules and limits alike). docs/security.md keeps the table.
   */
  const DEEP = '{ staff(employeeId: 1001) { licenses(first: 1) { edges { node { employeeSecurityLicenseInfo { currentStatus } } } } } }';
  const REFUSED_DOCUMENTS = [
    ['does not parse', '{ staff(employeeId: ', 'GRAPHQL_PARSE_FAILED'],
    ['fails validation', '{ staff(employeeId: 1001) { nope } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['is deeper than GRAPHQL_MAX_DEPTH', DEEP, 'GRAPHQL_VALIDATION_FAILED'],
    ['has more aliases than GRAPHQL_MAX_ALIASES', '{ a: staff(employeeId: 1) { firstName } b: staff(employeeId: 2) { firstName } c: staff(employeeId: 3) { firstName } d: staff(employeeId: 4) { firstName } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['has more directives than GRAPHQL_MAX_DIRECTIVES', '{ __typename @skip(if: false) @skip(if: false) @skip(if: false) @skip(if: false) }', 'GRAPHQL_VALIDATION_FAILED'],
    ['costs more than GRAPHQL_MAX_COST', '{ staff(employeeId: 1001) { firstName lastName staffId email mobile employeeReferenceNumber licenses(first: 5) { edges { node { securityLicenseId licenseNumber status state expiryDate reminder critical attachmentLink licenceSector isInvalidLicense } } } } }', 'GRAPHQL_VALIDATION_FAILED'],
    ['has more tokens than GRAPHQL_MAX_TOKENS', `{ ${Array.from({ length: 150 }, () => '__typename').join(' ')} }`, 'GRAPHQL_VALIDATION_FAILED'],
  ] as const;
  const ACCEPTS = [
    ['application/json', 'application/json', 200],
    ['application/graphql-response+json', 'application/graphql-response+json', 400],
    ['*/*', 'application/json', 200],
  ] as const;
  const cases = REFUSED_DOCUMENTS.flatMap(([what, query, code]) =>
    ACCEPTS.map(([accept, contentType, status]) => ({ what, query, code, accept, contentType, status })),
  );

  it.each(cases)('a document that $what is HTTP $status $code with Accept $accept', async ({ query, code, accept, contentType, status }) => {
    // Twice: the second answer comes from yoga's parse and validation caches and must not differ.
    for (let round = 0; round < 2; round++) {
      const res = await t.request('POST', '/graphql', { token, body: { query }, headers: { accept } });
      expect(res.status, `round ${round}: ${res.text}`).toBe(status);
      expect(res.headers.get('content-type')).toContain(contentType);
      expect(res.body).not.toHaveProperty('data');
      expect(res.body.errors.length).toBeGreaterThan(0);
      expect(res.body.errors.map((e: any) => e.extensions?.code)).toEqual(res.body.errors.map(() => code));
    }
  });

  it('refuses a document over GET like one sent by POST', async () => {
    const res = await t.request('GET', `/graphql?query=${encodeURIComponent(DEEP)}`, { token, headers: { accept: 'application/graphql-response+json' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it.each([
    ['variables that do not fit their types', { query: 'query ($id: Int!) { staff(employeeId: $id) { firstName } }', variables: { id: 'x' } }, false],
    ['no operation of that name', { query: 'query A { __typename } query B { __typename }', operationName: 'C' }, false],
    // A request without a query is malformed (GraphQL over HTTP): 400 under either media type.
    ['no query at all', { variables: {} }, false],
  ])('%s: refused, nothing runs', async (_what, body, byMediaType) => {
    for (const [accept, , status] of ACCEPTS) {
      const res = await t.request('POST', '/graphql', { token, body, headers: { accept } });
      // Variables and the operation name are checked when the request executes, always 400.
      expect(res.status, `${accept}: ${res.text}`).toBe(byMediaType ? status : 400);
      expect(res.body).not.toHaveProperty('data');
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('a batch over GRAPHQL_BATCH_LIMIT is HTTP 400 BAD_USER_INPUT; a batch within it is 200 with each item’s own errors', async () => {
    const one = { query: '{ __typename }' };
    for (const [accept] of ACCEPTS) {
      const tooMany = await t.request('POST', '/graphql', { token, body: [one, one, one], headers: { accept } });
      expect(tooMany.status, tooMany.text).toBe(400);
      expect(tooMany.body.errors.map((e: any) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      // A batch has one status for all its items, so a refused item is reported inside it.
      const mixed = await t.request('POST', '/graphql', { token, body: [one, { query: DEEP }], headers: { accept } });
      expect(mixed.status).toBe(200);
      expect(mixed.body[0]).toEqual({ data: { __typename: 'Query' } });
      expect(mixed.body[1].errors.map((e: any) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    }
  });

  it('leaves the REST routes (trusted operation documents) outside the GraphQL limits', async () => {
    // The licenses operation is deeper and costlier than this instance lets a /graphql caller go.
    const res = await t.request('GET', '/api/external/staffs/1001/licenses?pageSize=5', { token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(5);
  });

  it('hides field suggestions outside development', async () => {
    const res = await t.graphql(token, '{ staff(employeeId: 1001) { firstNam } }');
    refused(res.body);
    expect(JSON.stringify(res.body)).not.toMatch(/did you mean/i);
  });
});

describe('GraphQL in production mode', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { NODE_ENV: 'production', GRAPHQL_MAX_DEPTH: '3' } });
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  it('refuses introspection unless GRAPHQL_INTROSPECTION=true, like any document that fails validation', async () => {
    const res = await t.graphql(token, '{ __schema { queryType { name } } }');
    // application/json: a refused document is 200 without data (see the media-type table above).
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.errors[0].message).toMatch(/introspection/i);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('does not echo the cost limit to the caller either', async () => {
    const res = await t.graphql(token, 'query ($n: Int) { staffs(first: $n) { __typename } }', { n: 1_000_000 });
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(res.body.errors[0].message).toBe('Query cost limit exceeded.');
    expect(JSON.stringify(res.body)).not.toMatch(/100000|found/);
  });

  it('does not echo the configured limit to the caller', async () => {
    const res = await t.graphql(token, '{ staff(employeeId: 1001) { licenses(first: 1) { edges { node { licenseNumber } } } } }');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toMatch(/\b3\b/);
  });
});

describe('GraphQL introspection switch', () => {
  it('GRAPHQL_INTROSPECTION=true allows it in production', async () => {
    const t = await startTestApp({ env: { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' } });
    try {
      const token = await t.token({ type: 'developer', companyId: 1 });
      const res = await t.graphql(token, '{ __schema { queryType { name } } }');
      expect(res.body.data.__schema.queryType.name).toBe('Query');
    } finally {
      await t.close();
    }
  });
});

describe('configuration of limits', () => {
  it('names the variable in one line when a limit is invalid', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(() => loadConfig({ BODY_LIMIT_BYTES: 'lots' })).toThrow(/^BODY_LIMIT_BYTES: /);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/^RATE_LIMIT_PER_MINUTE: /);
    expect(() => loadConfig({ TOKEN_RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/^TOKEN_RATE_LIMIT_PER_MINUTE: /);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'postgres' })).toThrow(/^RATE_LIMIT_STORE: /);
    expect(() => loadConfig({ GRAPHQL_INTROSPECTION: 'maybe' })).toThrow(/^GRAPHQL_INTROSPECTION: /);
    const defaults = loadConfig({}).limits;
    expect(defaults.bodyLimitBytes).toBe(1024 * 1024);
    expect(defaults.rateLimitPerMinute).toBe(1200);
    expect(defaults.tokenRateLimitPerMinute).toBe(30);
  });
});

void rawRequest;
