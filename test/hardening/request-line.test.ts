import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, requestLineWriter } from '../../src/shared/observability/logger.js';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the request line', () => {
  it('is byte for byte what pino writes for the same fields, with and without a key id', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-04T05:06:07.089Z'), toFake: ['Date'] });
    try {
      const viaPino = capture();
      const direct = capture();
      const logger = createLogger('info', viaPino.stream);
      const write = requestLineWriter(createLogger('info', direct.stream));
      const cases = [
        { requestId: 'abc-123', method: 'GET', route: '/api/external/timesheets/:id', status: 200, durationMs: 1.23, keyId: 7 },
        { requestId: 'e0b7a1a2-6c1f-4b8e-9d43-0a1b2c3d4e5f', method: 'POST', route: '/graphql', status: 499, durationMs: 0, keyId: undefined },
        { requestId: 'a/b+c=d@e:f.g_h', method: undefined, route: 'unmatched', status: 404, durationMs: 12345.67, keyId: undefined },
      ];
      // Milliseconds of one, two and three digits, the same second twice, and the next second.
      const times = ['2026-03-04T05:06:07.089Z', '2026-03-04T05:06:07.005Z', '2026-03-04T05:06:07.999Z', '2026-03-04T05:06:08.120Z', '2026-12-31T23:59:59.000Z'];
      for (const time of times) {
        vi.setSystemTime(Date.parse(time));
        for (const c of cases) {
          logger.info(c, 'request');
          write(c.requestId, c.method, c.route, c.status, c.durationMs, c.keyId);
        }
      }
      await flush();
      expect(direct.lines).toEqual(viaPino.lines);
      expect(direct.lines).toHaveLength(15);
      expect(direct.lines[3]).toContain('"time":"2026-03-04T05:06:07.005Z"');
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows the logger’s level', async () => {
    const out = capture();
    const logger = createLogger('warn', out.stream);
    const write = requestLineWriter(logger);
    write('quiet', 'GET', '/graphql', 200, 1, undefined);
    logger.level = 'info';
    write('heard', 'GET', '/graphql', 200, 1, undefined);
    await flush();
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ requestId: 'heard', level: 30 });
  });
});
