import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applyHeapGrowth } from '../../src/server/heap.js';

describe('the heap growth setting (HEAP_GROWING_PERCENT)', () => {
  it('asks V8 for the configured growth, and leaves V8 alone at 0', () => {
    const given: string[] = [];
    applyHeapGrowth(20, (flags) => given.push(flags));
    applyHeapGrowth(0, (flags) => given.push(flags));
    expect(given).toEqual(['--heap-growing-percent=20']);
  });

  it('is a flag V8 accepts once the process runs, and the heap still grows past it as far as it needs', () => {
    // A child sets the flag as serve does, then holds ~200 MB: growth is never a cap.
    const script = `
      const { setFlagsFromString } = require('node:v8');
      setFlagsFromString('--heap-growing-percent=20');
      const held = [];
      for (let i = 0; i < 200; i++) held.push(new Array(128 * 1024).fill(i));
      console.log(held.length);
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('200');
    expect(child.status).toBe(0);
  });
});
