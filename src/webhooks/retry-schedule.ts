import { DAY_MS } from '../shared/clock.js';

/** When the next attempt is due after `attemptsMade` failed attempts, or null when retries are exhausted. */
export function nextAttemptDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return null;
  // ±10 % jitter spreads a burst of failures so a recovering receiver is not hit all at once.
  const jittered = base * 1000 * (0.9 + 0.2 * random());
  // A receiver's Retry-After is a floor, never a way to retry sooner than the schedule.
  return Math.round(Math.max(jittered, retryAfterMs ?? 0));
}

/** Reads Retry-After (delta seconds or an HTTP date); capped at one day so a receiver cannot park a delivery forever. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  const trimmed = value?.trim() ?? '';
  const ms = /^[0-9]+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  return Number.isNaN(ms) ? null : Math.min(Math.max(ms, 0), DAY_MS);
}
