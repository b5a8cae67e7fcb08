import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream } from '../support/event-stream.js';
import { SUB_KEY, type TestApp } from '../support/test-app.js';
import { startWebhookApp, waitFor } from './support.js';

const QUERY = 'subscription { events { type } }';

/** Asks for a stream and returns the answer as is (status, headers, JSON body), closing any stream. */
async function askForStream(t: TestApp, token: string, method: 'POST' | 'GET' = 'POST') {
  const controller = new AbortController();
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    authorization: `Bearer ${token}`,
    'external-gh-apim-sub-key': SUB_KEY,
  };
  const res =
    method === 'GET'
      ? await fetch(`${t.baseUrl}/graphql?query=${encodeURIComponent(QUERY)}`, { headers, signal: controller.signal })
      : await fetch(`${t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERY }),
          signal: controller.signal,
        });
  if (res.status === 200) {
    controller.abort();
    return { status: 200, headers: res.headers, body: undefined };
  }
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

function expectRefused(answer: Awaited<ReturnType<typeof askForStream>>) {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.headers.get('content-type')).toMatch(/application\/json/);
  expect(answer.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  expect(answer.body.errors[0].message).toMatch(/stream/i);
}

describe('caps on live event streams', () => {
  let t: TestApp | undefined;
  const streams: EventStream[] = [];
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await t?.close();
    t = undefined;
  });

  it('refuses streams over LIVE_MAX_STREAMS_PER_KEY and LIVE_MAX_STREAMS with 429 and Retry-After; an ended stream frees its slot', async () => {
    t = await startWebhookApp({ LIVE_MAX_STREAMS_PER_KEY: '2', LIVE_MAX_STREAMS: '3' });
    const app = t;
    const a = await app.token({ type: 'developer', companyId: 1 });
    const b = await app.token({ type: 'developer', companyId: 1 });
    const c = await app.token({ type: 'developer', companyId: 2 });
    streams.push(await openEventStream(app.baseUrl, a, QUERY), await openEventStream(app.baseUrl, a, QUERY));
    expectRefused(await askForStream(app, a));
    expectRefused(await askForStream(app, a, 'GET'));
    // Other requests of that key are not streams and go on as usual.
    const plain = await app.graphql(a, '{ __typename }');
    expect(plain.status).toBe(200);

    streams.push(await openEventStream(app.baseUrl, b, QUERY));
    expectRefused(await askForStream(app, c));

    // A client that goes away gives its slot back.
    streams.shift()!.close();
    await waitFor(() => app.app.liveStreams.size === 2, 'the closed stream to be released');
    streams.push(await openEventStream(app.baseUrl, a, QUERY));
    expectRefused(await askForStream(app, a));
  });

  it('opens many streams without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      t = await startWebhookApp({ LIVE_MAX_STREAMS_PER_KEY: '60', LIVE_MAX_STREAMS: '60' });
      const app = t;
      const token = await app.token({ type: 'developer', companyId: 1 });
      for (let i = 0; i < 60; i++) streams.push(await openEventStream(app.baseUrl, token, QUERY));
      await waitFor(() => app.app.liveStreams.size === 60, 'all streams to be counted');
      expectRefused(await askForStream(app, token));
      for (const s of streams.splice(0)) s.close();
      await waitFor(() => app.app.liveStreams.size === 0, 'every stream to be released');
      await waitFor(() => !app.app.services.webhooks?.bus.listening, 'every bus subscription to end');
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
