import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** What the cap needs from V8; the real functions unless a test hands in its own. */
export interface HeapControls {
  /** The young generation's committed size in bytes (`new_space` in v8.getHeapSpaceStatistics). */
  newSpaceBytes(): number;
  setFlags(flags: string): void;
  /** Calls `onCollection` after each garbage collection; returns a function that stops it. */
  observeCollections(onCollection: () => void): () => void;
}

const MB = 1024 * 1024;

/** V8's own factor: each growth step doubles the young generation. */
const V8_GROWTH_FACTOR = 2;

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

function observeCollections(onCollection: () => void): () => void {
  const observer = new PerformanceObserver(() => onCollection());
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

export const v8HeapControls: HeapControls = { newSpaceBytes, setFlags: setFlagsFromString, observeCollections };

export interface YoungGenerationCap {
  /** Lets the young generation grow again, step by step, until the next step would pass the cap. */
  release(): void;
  /** Stops watching and gives V8 back its own growth. */
  stop(): void;
}

const NO_CAP: YoungGenerationCap = { release() {}, stop() {} };

/**
 * Keeps V8's young generation (the new space, where every request's short-lived objects are
 * allocated) at most `limitMB`. V8 doubles it whenever enough survives a scavenge, up to 32 MB on
 * 64-bit Node, and never gives it back while the process is busy; its own ceiling
 * (--max-semi-space-size) is read only when the process starts, so it cannot be set from here.
 * Its growth factor (--semi-space-growth-factor) is read at every growth step, though: the cap
 * sets it to 1 (no growth) whenever one more doubling would pass the limit, and back to 2 below.
 *
 * Growth is held (factor 1) from the call until `release`: module loading and the app's start-up
 * run as long synchronous stretches in which V8 would double the space several times before an
 * observer could answer. After `release` the decision is re-taken after every collection. V8
 * grows the space at most once per scavenge, and only after more than its size has survived
 * since the last step, so it can pass the limit only by a step taken inside one synchronous
 * stretch that allocates that much; it then stays there until V8 shrinks it. 0 leaves V8 alone.
 */
export function capYoungGeneration(limitMB: number, controls: HeapControls = v8HeapControls): YoungGenerationCap {
  if (limitMB <= 0) return NO_CAP;
  const limit = limitMB * MB;
  let factor = 0;
  const setFactor = (next: number) => {
    if (next === factor) return;
    factor = next;
    controls.setFlags(`--semi-space-growth-factor=${next}`);
  };
  const decide = () => setFactor(controls.newSpaceBytes() * V8_GROWTH_FACTOR <= limit ? V8_GROWTH_FACTOR : 1);
  setFactor(1);
  let unobserve: (() => void) | undefined;
  let stopped = false;
  return {
    release() {
      if (stopped || unobserve) return;
      decide();
      unobserve = controls.observeCollections(decide);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      unobserve?.();
      setFactor(V8_GROWTH_FACTOR);
    },
  };
}
