import { describe, expect, it, vi } from 'vitest';
import { AddressGuard } from '../../src/webhooks/address-guard.js';
import { postWebhook, readTarget, SendPools, SendTargets } from '../../src/webhooks/sender.js';

describe('delivery URIs read once', () => {
  it('reads a URI, literal address checked, once for all its sends', () => {
    const guard = new AddressGuard(['127.0.0.0/8', '::1/128']);
    const problem = vi.spyOn(guard, 'problem');
    const targets = new SendTargets(guard);
    const first = targets.targetOf('http://127.0.0.1:8080/hooks/1?x=1');
    const again = targets.targetOf('http://127.0.0.1:8080/hooks/1?x=1');
    expect(again).toBe(first);
    expect(problem).toHaveBeenCalledTimes(1);
    expect(first).toMatchObject({ https: false, origin: 'http://127.0.0.1:8080', request: { hostname: '127.0.0.1', port: 8080, path: '/hooks/1?x=1' } });
    // An IPv6 literal loses its brackets for the connection, keeps them in the origin.
    expect(targets.targetOf('https://[::1]/h')).toMatchObject({ https: true, origin: 'https://[::1]', request: { hostname: '::1', path: '/h' } });
  });

  it('refuses what a send refuses, every time it is asked', () => {
    const guard = new AddressGuard();
    const targets = new SendTargets(guard);
    for (let i = 0; i < 2; i++) {
      expect(targets.targetOf('not a uri')).toEqual({ refused: 'invalid uri' });
      expect(targets.targetOf('ftp://example.com/x')).toEqual({ refused: 'only http and https are allowed' });
      expect(targets.targetOf('http://169.254.169.254/latest')).toEqual({ refused: expect.stringMatching(/^refused: 169\.254\.169\.254 is a loopback/) });
      expect(targets.targetOf('http://[::ffff:127.0.0.1]/x')).toEqual({ refused: expect.stringMatching(/^refused: .* maps to the non-public address 127\.0\.0\.1/) });
    }
  });

  it('keeps a bounded number of URIs, forgetting the least recently used', () => {
    const guard = new AddressGuard(['127.0.0.0/8']);
    const problem = vi.spyOn(guard, 'problem');
    const targets = new SendTargets(guard, 2);
    targets.targetOf('http://127.0.0.1/a');
    targets.targetOf('http://127.0.0.2/b');
    targets.targetOf('http://127.0.0.1/a');
    targets.targetOf('http://127.0.0.3/c');
    expect(targets.size).toBe(2);
    expect(problem).toHaveBeenCalledTimes(3);
    // /a was used after /b, so /b went: reading it again checks it again.
    targets.targetOf('http://127.0.0.1/a');
    expect(problem).toHaveBeenCalledTimes(3);
    targets.targetOf('http://127.0.0.2/b');
    expect(problem).toHaveBeenCalledTimes(4);
  });

  it("a send checks with its own guard, never with readings made for another", async () => {
    const lenient = new AddressGuard(['127.0.0.0/8']);
    const strict = new AddressGuard();
    const targets = new SendTargets(lenient);
    expect(readTarget('http://127.0.0.1:9/x', lenient)).not.toHaveProperty('refused');
    const pools = new SendPools(strict, { socketsPerOrigin: 1, idleMs: 1000, origins: 1, connectTimeoutMs: 1000 });
    const outcome = await postWebhook('http://127.0.0.1:9/x', {}, '{}', { timeoutMs: 1000, guard: strict, pools, targets });
    await pools.close();
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback/) });
    expect(targets.size).toBe(0);
  });
});
