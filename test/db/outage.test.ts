import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/backend.js';
import { expectEnvelope, expectFailure, headerOf } from '../support/envelope.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const TIMESHEET = 'query { timesheet(timesheetId: 9001) { timesheetId } }';
const CREATE = `mutation ($input: CreateEventSubscriptionInput!) {
  createEventSubscription(input: $input) { eventSubscription { subscriptionId } }
}`;

/** Retry-After must be a whole number of seconds, at least one. */
function expectRetryAfter(res: { headers: Headers }): void {
  expect(headerOf(res, 'retry-after')).toMatch(/^[1-9][0-9]*$/);
}

function expectGraphQLUnavailable(res: { status: number; headers: Headers; body: any }): void {
  expect(res.status).toBe(503);
  expectRetryAfter(res);
  expect(res.body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
}

/**
 * A TCP proxy between the gateway and PostgreSQL. cut() closes the listener (new connections are
 * refused) and destroys every live socket, as a database host going away would; restore() listens
 * on the same port again.
 */
class DatabaseProxy {
  private server: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = this.newServer();
  }

  private newServer(): Server {
    return createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  async restore(): Promise<void> {
    if (this.server.listening) return;
    this.server = this.newServer();
    await this.listen();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.skipIf(!onPostgres())('PostgreSQL out of reach', () => {
  let database: TestDatabase;
  let proxy: DatabaseProxy;
  let t: TestApp;
  let token: string;
  let apiKey: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url);
    proxy = new DatabaseProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.listen();
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    t = await startTestApp({ database: { ...database, url: proxied.toString(), env: { ...database.env, DATABASE_URL: proxied.toString() } } });
    token = await t.token({ type: 'timesheet', companyId: 1 });
    apiKey = (await t.key({ type: 'developer', companyId: 1 })).apiKey;
  });
  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    await database?.close();
  });

  async function expectAllAnswer(): Promise<void> {
    expectEnvelope(await t.request('GET', '/api/external/timesheets/9001', { token }), 200);
    expectEnvelope(await t.request('POST', '/api/external/token/request', { body: { apiKey } }), 200);
    const graphql = await t.request('POST', '/graphql', { token, body: { query: TIMESHEET } });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data.timesheet.timesheetId).toBe(9001);
    expect((await t.request('GET', '/readyz')).status).toBe(200);
  }

  it('answers 503 with Retry-After on every path while cut, and recovers by itself when restored', async () => {
    await expectAllAnswer();
    await proxy.cut();

    const read = await t.request('GET', '/api/external/timesheets/9001', { token });
    expectFailure(read, 503);
    expectRetryAfter(read);
    const tokenRequest = await t.request('POST', '/api/external/token/request', { body: { apiKey } });
    expectFailure(tokenRequest, 503);
    expectRetryAfter(tokenRequest);
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      expectGraphQLUnavailable(await t.request('POST', '/graphql', { token, headers: { accept }, body: { query: TIMESHEET } }));
    }
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.database).toBe('unreachable');

    await proxy.restore();
    await expectAllAnswer();
  }, 30_000);
});

/**
 * SQLite's limits are the connection's own: max_page_count caps the file as a full disk would,
 * and query_only refuses writes as a read-only file would. The gateway on SQLite has one request
 * connection, so a pragma run through its pool applies to every request after it.
 */
describe.skipIf(onPostgres())('SQLite unable to write', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.token({ type: 'developer', companyId: 1 });
  });
  afterAll(() => t.close());

  // Large rows fill a page in a few writes, so a capped file runs out of room soon.
  const LONG_URI = `https://hooks.example.com/${'x'.repeat(1900)}`;

  async function subscriptions(): Promise<unknown[]> {
    return t.app.db('subscriptions').orderBy('id');
  }

  /** Takes every free page, so the next write that needs a page of its own finds none. */
  async function fillDisk(): Promise<void> {
    await t.app.db.raw('create table disk_filler (x blob)');
    // max_page_count cannot go below the file's size, so asking for 1 caps it where it is.
    await t.app.db.raw('pragma max_page_count = 1');
    for (let i = 0; i < 10_000; i++) {
      const full = await t.app.db.raw('insert into disk_filler values (zeroblob(512))').then(
        () => false,
        (error: { code?: string }) => error.code === 'SQLITE_FULL',
      );
      if (full) return;
    }
    throw new Error('the capped database never filled');
  }

  type Answer = Awaited<ReturnType<TestApp['request']>>;

  /**
   * Tables keep room in the pages they have, so on a full disk writes go on until one needs a
   * page of its own: sends writes until one is refused, with the subscriptions as they were before it.
   */
  async function writeUntilRefused(send: (i: number) => Promise<Answer>): Promise<{ refused: Answer; before: unknown[] }> {
    for (let i = 0; i < 20; i++) {
      const before = await subscriptions();
      const res = await send(i);
      if (res.status >= 300 || (res.body?.errors?.length ?? 0) > 0) return { refused: res, before };
    }
    throw new Error('twenty writes were accepted');
  }

  const cases: { name: string; provoke: () => Promise<unknown>; undo: () => Promise<unknown> }[] = [
    {
      name: 'disk full (SQLITE_FULL)',
      provoke: fillDisk,
      undo: async () => {
        await t.app.db.raw('pragma max_page_count = 1073741823');
        await t.app.db.raw('drop table disk_filler');
      },
    },
    {
      name: 'read-only (SQLITE_READONLY)',
      provoke: () => t.app.db.raw('pragma query_only = on'),
      undo: () => t.app.db.raw('pragma query_only = off'),
    },
  ];

  for (const c of cases) {
    it(`answers writes 503 with Retry-After when ${c.name}, /readyz 503, and recovers`, async () => {
      await c.provoke();
      let before: unknown[] = [];
      try {
        const rest = await writeUntilRefused((i) =>
          t.request('POST', '/api/webhook/subscriptions', {
            token,
            headers: { 'idempotency-key': `while-${c.name}-${i}` },
            body: { subscriberId: 301, uri: `${LONG_URI}-${i}` },
          }),
        );
        expectFailure(rest.refused, 503);
        expectRetryAfter(rest.refused);
        expect(await subscriptions()).toEqual(rest.before);
        const graphql = await writeUntilRefused((i) =>
          t.request('POST', '/graphql', { token, body: { query: CREATE, variables: { input: { subscriberId: 301, uri: `${LONG_URI}-graphql-${i}` } } } }),
        );
        expectGraphQLUnavailable(graphql.refused);
        expect(await subscriptions()).toEqual(graphql.before);
        before = graphql.before;
        const ready = await t.request('GET', '/readyz');
        expect(ready.status).toBe(503);
        expect(ready.body.database).toBe('unwritable');
      } finally {
        await c.undo();
      }
      expect(await subscriptions()).toEqual(before);
      expect((await t.request('GET', '/readyz')).status).toBe(200);
      const created = await t.request('POST', '/api/webhook/subscriptions', {
        token,
        body: { subscriberId: 301, uri: `https://hooks.example.com/after-${before.length}` },
      });
      expect(created.status).toBe(201);
    });
  }
});
