import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { progressLine } from '../../src/cli/import-progress.js';

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { out, text: () => text };
}

describe('the import progress line', () => {
  it('rewrites one line in place and clears it at the end', () => {
    const { out, text } = capture();
    let clock = 0;
    const line = progressLine(out, () => clock);
    line.start();
    line.report({ stage: 'validated', done: 5000, total: 5000 });
    clock += 500;
    line.report({ stage: 'written', done: 1000, total: 5000 });
    // Within the redraw interval, a step that is neither a new stage nor the last is skipped.
    clock += 10;
    line.report({ stage: 'written', done: 2000, total: 5000 });
    clock += 10;
    line.report({ stage: 'written', done: 5000, total: 5000 });
    line.end();
    const frames = text().split('\r\x1b[K');
    expect(frames).toEqual([
      '',
      'importing: reading and validating the file…',
      'importing: 5,000 of 5,000 records validated',
      'importing: 1,000 of 5,000 records written',
      'importing: 5,000 of 5,000 records written',
      '',
    ]);
    expect(text()).not.toContain('\n');
  });

  it('writes nothing at the end when nothing was drawn', () => {
    const { out, text } = capture();
    progressLine(out).end();
    expect(text()).toBe('');
  });
});
