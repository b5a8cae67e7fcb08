import { afterEach, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/repositories/api-keys.js';
import { openEventStream, type EventStream } from '../support/event-stream.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { FAST_WEBHOOKS, importTimesheets, waitFor } from './support.js';

const START = Date.parse('2026-02-10T12:00:00.000Z');
const QUERY = 'subscription { events(event: "timesheet") { type data } }';

/** A webhook-ready app whose clock only moves when the test says so. */
async function appWithClock(env: Record<string, string> = {}) {
  let clock = START;
  const t = await startTestApp({ now: () => clock, env: { ...FAST_WEBHOOKS, ...env } });
  return {
    t,
    advance(seconds: number) {
      clock += seconds * 1000;
    },
  };
}

async function developerToken(t: TestApp) {
  const { id, apiKey } = await t.key({ type: 'developer', companyId: 1 });
  const res = await t.request('POST', '/api/external/token/request', { body: { apiKey } });
  expect(res.status, res.text).toBe(200);
  return { keyId: id, token: res.body.data.accessToken as string };
}

/** Waits until the stream is over, then checks it ended with one UNAUTHENTICATED error and `complete`. */
async function expectClosedUnauthenticated(stream: EventStream) {
  await waitFor(() => stream.ended, 'the server to end the stream', 10_000);
  const last = stream.messages.at(-1);
  expect(last?.errors?.[0]?.extensions?.code, JSON.stringify(last)).toBe('UNAUTHENTICATED');
  expect(stream.completed).toBe(true);
}

/** Whether the stream is still open after the server had time for a few of its checks. */
async function stillOpenAfterAWhile(stream: EventStream): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return !stream.ended;
}

describe('live event streams end with their credentials', () => {
  let t: TestApp | undefined;
  const streams: EventStream[] = [];
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await t?.close();
    t = undefined;
  });

  it('a revoked key’s stream ends with UNAUTHENTICATED within API_KEY_CACHE_SECONDS', async () => {
    const clocked = await appWithClock({ API_KEY_CACHE_SECONDS: '5' });
    t = clocked.t;
    const app = t;
    const { keyId, token } = await developerToken(app);
    const stream = await openEventStream(app.baseUrl, token, QUERY);
    streams.push(stream);
    await waitFor(() => app.app.services.webhooks?.bus.listening, 'the stream to listen');
    await importTimesheets(app.app.db, [{ timesheetId: 9601, siteId: 100, employeeId: 1001 }]);
    await waitFor(() => stream.messages.length > 0, 'an event before revocation');

    expect(await revokeApiKey(app.app.db, keyId)).toBe(true);
    clocked.advance(3);
    expect(await stillOpenAfterAWhile(stream), 'inside the cache window the stream may go on').toBe(true);
    clocked.advance(2);
    await expectClosedUnauthenticated(stream);
    // The stream's slot and its bus subscription are gone with it.
    await waitFor(() => app.app.liveStreams.size === 0, 'the stream to be released');
    expect(app.app.services.webhooks?.bus.listening).toBe(false);
  });

  it('a stream ends with UNAUTHENTICATED when its access token expires', async () => {
    const clocked = await appWithClock({ TOKEN_TTL_SECONDS: '60' });
    t = clocked.t;
    const app = t;
    const { token } = await developerToken(app);
    const stream = await openEventStream(app.baseUrl, token, QUERY);
    streams.push(stream);
    await waitFor(() => app.app.services.webhooks?.bus.listening, 'the stream to listen');
    clocked.advance(59);
    expect(await stillOpenAfterAWhile(stream), 'before exp the stream goes on').toBe(true);
    clocked.advance(1);
    await expectClosedUnauthenticated(stream);
    await waitFor(() => app.app.liveStreams.size === 0, 'the stream to be released');
  });

  it('a client that disconnects frees its stream and leaves no timer behind', async () => {
    const clocked = await appWithClock();
    t = clocked.t;
    const app = t;
    const { token } = await developerToken(app);
    const stream = await openEventStream(app.baseUrl, token, QUERY);
    await waitFor(() => app.app.liveStreams.size === 1, 'the stream to be counted');
    expect(app.app.liveStreams.watching).toBe(true);
    stream.close();
    await waitFor(() => app.app.liveStreams.size === 0, 'the stream to be released');
    expect(app.app.liveStreams.watching).toBe(false);
    await waitFor(() => !app.app.services.webhooks?.bus.listening, 'the bus subscription to end');
  });
});
