import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printedOpenApi } from '../../src/rest/openapi/document.js';
import { expectFailure } from '../support/envelope.js';
import { appPerTest, type TestApp } from '../support/test-app.js';

const ROOT = resolve(import.meta.dirname, '../..');
const COMMITTED = readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8');

const get = (t: TestApp, init: RequestInit = {}) => fetch(`${t.baseUrl}/openapi.json`, init);

/** What a client sees of one answer: everything but the date and the request id. */
async function seen(res: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const headers = [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
  return { status: res.status, headers, body: await res.text() };
}

describe('/openapi.json, generated on its first request', () => {
  const startApp = appPerTest();

  it('answers the first request and every later one alike, with the committed document', async () => {
    const t = await startApp();
    // HEAD first: the first request to arrive may be any method the route takes.
    const head = await get(t, { method: 'HEAD' });
    const first = await seen(await get(t));
    const second = await seen(await get(t));
    expect(first).toEqual(second);
    expect(first.status).toBe(200);
    expect(first.body).toBe(COMMITTED);
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(first.headers.find(([name]) => name === 'etag')?.[1]);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(COMMITTED)));
  });

  it('prints the document once, however many requests wait for it', async () => {
    let prints = 0;
    const t = await startApp({
      printOpenApi: async () => {
        prints++;
        return printedOpenApi();
      },
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(t).then(seen)));
    await get(t);
    expect(prints).toBe(1);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.body).toBe(COMMITTED);
  });

  it('answers a failed generation with the internal-error envelope, and generates again on the next request', async () => {
    let prints = 0;
    const t = await startApp({
      printOpenApi: async () => {
        prints++;
        if (prints === 1) throw new Error('generator module missing');
        return printedOpenApi();
      },
    });
    const failed = await t.request('GET', '/openapi.json', { subKey: null, headers: { 'x-request-id': 'req-openapi' } });
    const envelope = expectFailure(failed, 500);
    expect(envelope.errors[0]!.message).toBe('Internal server error (request id req-openapi)');
    expect(failed.text).not.toContain('generator module missing');

    const next = await get(t);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe(COMMITTED);
    expect(prints).toBe(2);
  });

  it('refuses another method before generating anything', async () => {
    let prints = 0;
    const t = await startApp({
      printOpenApi: async () => {
        prints++;
        return printedOpenApi();
      },
    });
    const res = await t.request('POST', '/openapi.json', { body: {} });
    expectFailure(res, 405);
    expect(prints).toBe(0);
  });
});
