import { describe, expect, it } from 'vitest';
import { routingPath } from '../../src/server/routing-path.js';

/** The path, or that the target is no URL at all (an invalid host in `//…`): either way the same for both. */
function outcome(path: (target: string) => string, target: string): string {
  try {
    return path(target);
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}
const viaUrl = (target: string) => new URL(target, 'http://localhost').pathname;

describe('the routing path of a request target', () => {
  it('is what the URL parser makes of it, for plain and unusual targets alike', () => {
    const targets = [
      '/graphql',
      '/api/external/timesheets/9001?x=1',
      '/openapi.json',
      '/',
      '/api/a b',
      '/api/%2e%2e/x',
      '/api/./x',
      '/api/x/..',
      '//evil.example/graphql',
      'http://other.example/graphql?q',
      '/api/x#frag?y',
      '/api/x?y#z',
      '/api/é',
      '/api/"<>`{}',
      '/api/a\\b',
      '/api/[x]|^',
      '/api/x%zz',
      '*',
      '/.well-known/x',
    ];
    for (const target of targets) expect(outcome(routingPath, target), target).toBe(outcome(viaUrl, target));
  });

  it('agrees with the URL parser on random targets', () => {
    const alphabet = "/ab.%2e?#\\ :@!$&'()*+,;=~-_[]|^{}\"<>`é\t";
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 20_000; i++) {
      let target = next() < 0.9 ? '/' : '';
      const length = 1 + Math.floor(next() * 10);
      for (let j = 0; j < length; j++) target += alphabet[Math.floor(next() * alphabet.length)];
      expect(outcome(routingPath, target), JSON.stringify(target)).toBe(outcome(viaUrl, target));
    }
  });
});
