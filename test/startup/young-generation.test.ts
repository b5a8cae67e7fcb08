import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capYoungGeneration, type HeapControls } from '../../src/server/heap.js';

const MB = 1024 * 1024;

/** Controls whose new-space size the test sets, recording the flags given and the observer. */
function fakeControls(startMB: number) {
  const state = {
    sizeMB: startMB,
    flags: [] as string[],
    collected: undefined as (() => void) | undefined,
    unobserved: 0,
  };
  const controls: HeapControls = {
    newSpaceBytes: () => state.sizeMB * MB,
    setFlags: (flags) => state.flags.push(flags),
    observeCollections(onCollection) {
      state.collected = onCollection;
      return () => {
        state.unobserved++;
        state.collected = undefined;
      };
    },
  };
  /** V8 grew or shrank the space, then collected. */
  const collect = (sizeMB: number) => {
    state.sizeMB = sizeMB;
    state.collected?.();
  };
  return { state, controls, collect };
}

describe('the young generation cap (YOUNG_GENERATION_MB)', () => {
  it('holds growth until released, then allows doubling only while the result stays within the cap', () => {
    const { state, controls, collect } = fakeControls(1);
    const cap = capYoungGeneration(16, controls);
    expect(state.flags).toEqual(['--semi-space-growth-factor=1']);
    expect(state.collected).toBeUndefined();

    cap.release();
    expect(state.flags.at(-1)).toBe('--semi-space-growth-factor=2');
    collect(2);
    collect(4);
    collect(8); // 8 → 16 is still within the cap
    expect(state.flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
    collect(16);
    expect(state.flags.at(-1)).toBe('--semi-space-growth-factor=1');
    collect(16);
    expect(state.flags).toHaveLength(3); // unchanged decisions set nothing
    // V8 gave some back while idle: growth is allowed again.
    collect(4);
    expect(state.flags.at(-1)).toBe('--semi-space-growth-factor=2');
  });

  it('gives V8 its own growth back when stopped, and stops watching', () => {
    const { state, controls, collect } = fakeControls(16);
    const cap = capYoungGeneration(16, controls);
    cap.release();
    expect(state.flags.at(-1)).toBe('--semi-space-growth-factor=1');
    cap.stop();
    expect(state.unobserved).toBe(1);
    expect(state.flags.at(-1)).toBe('--semi-space-growth-factor=2');
    const given = state.flags.length;
    collect(32);
    cap.release();
    expect(state.flags).toHaveLength(given);
  });

  it('leaves V8 alone at 0', () => {
    const { state, controls } = fakeControls(1);
    const cap = capYoungGeneration(0, controls);
    cap.release();
    cap.stop();
    expect(state.flags).toEqual([]);
    expect(state.collected).toBeUndefined();
  });

  it('relies on a flag V8 reads at every growth step of a running process', () => {
    // Allocates objects that survive scavenges (what makes V8 grow the young generation), first
    // twice with the growth factor at 1, then at V8's own 2: held, the space keeps its size.
    const script = `
      const { getHeapSpaceStatistics, setFlagsFromString } = require('node:v8');
      const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      const churn = () => {
        let kept = [];
        for (let i = 0; i < 2e6; i++) {
          kept.push({ i, text: 'item ' + i });
          if (kept.length > 50000) kept = [];
        }
      };
      setFlagsFromString('--semi-space-growth-factor=1');
      churn();
      const before = newSpace();
      churn();
      const held = newSpace();
      setFlagsFromString('--semi-space-growth-factor=2');
      churn();
      console.log(JSON.stringify({ before, held, grown: newSpace() }));
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const { before, held, grown } = JSON.parse(child.stdout) as { before: number; held: number; grown: number };
    expect(held).toBeLessThanOrEqual(before);
    expect(grown).toBeGreaterThan(held);
  });
});
