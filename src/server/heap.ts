import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const MB = 1024 * 1024;

/** V8's own factor: each growth step doubles the young generation. */
const V8_GROWTH_FACTOR = 2;

/** What the cap needs from V8; the real functions unless a test hands in its own. */
const v8HeapControls = {
  /** The young generation's committed size in bytes (`new_space` in v8.getHeapSpaceStatistics). */
  newSpaceBytes: (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
  setFlags: setFlagsFromString,
  /** Calls `onCollection` after each garbage collection; returns a function that stops it. */
  observeCollections(onCollection: () => void): () => void {
    const observer = new PerformanceObserver(() => onCollection());
    observer.observe({ entryTypes: ['gc'] });
    return () => observer.disconnect();
  },
};

export type HeapControls = typeof v8HeapControls;

/**
 * Keeps V8's young generation (the new space, where every request's short-lived objects live) at
 * most `limitMB`. V8 doubles it whenever enough survives a scavenge, up to 32 MB on 64-bit Node,
 * and never gives it back while busy; its ceiling (--max-semi-space-size) is read only at start,
 * but its growth factor (--semi-space-growth-factor) at every step: the cap sets the factor to 1
 * whenever one more doubling would pass the limit, and back to 2 below.
 *
 * Growth is held from the call until `release` (start-up runs long synchronous stretches in which
 * V8 would double the space before an observer could answer); after it, the decision is re-taken
 * after every collection. V8 grows at most once per scavenge, so the space can pass the limit only
 * by a step inside one synchronous stretch that allocates that much. 0 leaves V8 alone.
 */
export function capYoungGeneration(limitMB: number, controls: HeapControls = v8HeapControls) {
  if (limitMB <= 0) return { release() {}, stop() {} };
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
    /** Lets the young generation grow again, step by step, until the next step would pass the cap. */
    release() {
      if (stopped || unobserve) return;
      decide();
      unobserve = controls.observeCollections(decide);
    },
    /** Stops watching and gives V8 back its own growth. */
    stop() {
      if (stopped) return;
      stopped = true;
      unobserve?.();
      setFactor(V8_GROWTH_FACTOR);
    },
  };
}

/**
 * Makes V8 grow the old generation by at most `percent` past what a full collection left, instead
 * of its own factor (up to several times the live size when collections look cheap): under load
 * that let a gateway holding ~40 MB reach 230 MB resident; with 20 % it stays near 150. Not a
 * limit: each step just asks for a collection first. V8 reads the flag whenever it sets the next
 * limit, so setting it while the process runs takes effect (node refuses it in NODE_OPTIONS).
 * 0 leaves V8's own factor.
 */
export function applyHeapGrowth(percent: number, setFlags: (flags: string) => void = v8HeapControls.setFlags): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
