import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/shared/observability/logger.js';
import { describeError } from '../../src/shared/observability/error-description.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectFailure } from '../support/envelope.js';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((l) => l.trim() !== ''));
      done();
    },
  });
  return { lines, stream };
}

/** What no log line may show of a statement: its text (any backend's quoting) or a bound value. */
function expectNoStatementText(line: string, values: readonly string[]): void {
  expect(line).not.toMatch(/\bvalues\b|\bwhere\b|\blimit\b|[`"]\w+[`"]\.|\$1|\?/i);
  for (const value of values) expect(line).not.toContain(value);
}

describe('a failed statement in the logs', () => {
  let t: TestApp;
  const log = capture();
  beforeAll(async () => {
    t = await startTestApp({ logger: createLogger('info', log.stream) });
  });
  afterAll(() => t.close());

  const CANARY = 'whsec_canary_value_never_logged_0123456789';

  async function failingInsert(): Promise<unknown> {
    try {
      // Subscriber 301 exists: the insert breaks the primary key.
      await t.app.db('subscribers').insert({ id: 301, company_id: 1, name: 'Duplicate', signing_secret: CANARY });
    } catch (error) {
      return error;
    }
    throw new Error('the insert was expected to fail');
  }

  it("is described for a worker's line by its name and the driver's error, without its text or values", async () => {
    const error = await failingInsert();
    const line = describeError(error);
    expect(line).toContain('[insert into subscribers');
    expect(line).toMatch(/unique|duplicate/i);
    expectNoStatementText(line, [CANARY, 'Duplicate']);
    expect(line.length).toBeLessThan(300);
  });

  it('is serialised for a JSON log line the same way, and the error keeps its own message', async () => {
    const error = await failingInsert();
    t.app.logger.error({ err: error }, 'background failure');
    await new Promise((r) => setTimeout(r, 20));
    const line = log.lines.find((l) => l.includes('background failure'));
    expect(line).toBeDefined();
    const logged = JSON.parse(line!).err;
    expect(logged.statement).toBe('insert into subscribers');
    expect(logged.message).toMatch(/unique|duplicate/i);
    expectNoStatementText(JSON.stringify(logged), [CANARY, 'Duplicate']);
    // Only logs are rewritten: the thrown error is as knex made it.
    expect((error as Error).message).toContain('insert into');
  });

  it('is logged without its text or values for a request that failed on it, with the 500 envelope', async () => {
    const token = await t.token({ type: 'timesheet', companyId: 1 });
    await t.app.db.schema.renameTable('timesheets', 'timesheets_away');
    try {
      const res = await t.request('GET', '/api/external/timesheets/9001', { token, headers: { 'x-request-id': 'stmt-500' } });
      expectFailure(res, 500);
    } finally {
      await t.app.db.schema.renameTable('timesheets_away', 'timesheets');
    }
    await new Promise((r) => setTimeout(r, 20));
    const line = log.lines.find((l) => JSON.parse(l).level === 50 && JSON.parse(l).err?.message?.includes('timesheets'));
    expect(line, log.lines.filter((l) => JSON.parse(l).level === 50).join('\n')).toBeDefined();
    const logged = JSON.parse(line!).err;
    expect(logged.message).toMatch(/timesheets/);
    expectNoStatementText(JSON.stringify(logged), ['9001']);
  });
});
