import { describe, expect, it } from 'vitest';
import { addressBudgetKey, clientAddress, trustedProxyList } from '../../src/auth/client-address.js';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('client address behind proxies (TRUSTED_PROXIES)', () => {
  const trusted = trustedProxyList(['127.0.0.0/8', '10.0.0.0/8', 'fd00::/8']);
  const none = trustedProxyList([]);

  it('is the socket peer when the peer is not a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress('198.51.100.7', '203.0.113.1', trusted)).toBe('198.51.100.7');
    expect(clientAddress('127.0.0.1', '203.0.113.1', none)).toBe('127.0.0.1');
  });

  it('is the socket peer when a trusted peer sends no X-Forwarded-For', () => {
    expect(clientAddress('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '', trusted)).toBe('127.0.0.1');
  });

  it('walks X-Forwarded-For right to left past trusted hops to the first untrusted address', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.1', trusted)).toBe('203.0.113.1');
    expect(clientAddress('127.0.0.1', '192.0.2.66, 203.0.113.1, 10.1.2.3', trusted)).toBe('203.0.113.1');
    expect(clientAddress('10.0.0.5', '192.0.2.66,203.0.113.1', trusted)).toBe('203.0.113.1');
    // Several header lines count as one list, in order.
    expect(clientAddress('127.0.0.1', ['192.0.2.66', '203.0.113.1, 10.9.9.9'], trusted)).toBe('203.0.113.1');
  });

  it('takes the farthest hop when every hop is trusted', () => {
    expect(clientAddress('127.0.0.1', '10.0.0.1, 10.0.0.2', trusted)).toBe('10.0.0.1');
  });

  it('stops at an entry that is not an address: the hop that forwarded it is the client', () => {
    expect(clientAddress('127.0.0.1', 'me-honest, 10.0.0.2', trusted)).toBe('10.0.0.2');
    expect(clientAddress('127.0.0.1', 'unknown', trusted)).toBe('127.0.0.1');
  });

  it('understands IPv4-mapped IPv6 peers, IPv6 hops and hops with ports', () => {
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.1', trusted)).toBe('203.0.113.1');
    expect(clientAddress('::ffff:198.51.100.7', '203.0.113.1', trusted)).toBe('198.51.100.7');
    expect(clientAddress('fd00::1', '2001:db8::7, fd00::2', trusted)).toBe('2001:db8::7');
    expect(clientAddress('127.0.0.1', '203.0.113.1:5123, 10.0.0.2:80', trusted)).toBe('203.0.113.1');
    expect(clientAddress('127.0.0.1', '[2001:db8::7]:443', trusted)).toBe('2001:db8::7');
    expect(clientAddress('127.0.0.1', '::ffff:203.0.113.1', trusted)).toBe('203.0.113.1');
  });

  it('keeps one budget per IPv4 address and per IPv6 /64', () => {
    expect(addressBudgetKey('203.0.113.1')).toBe('203.0.113.1');
    expect(addressBudgetKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(addressBudgetKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressBudgetKey('2001:0db8:0001:0002:0::1')).toBe('2001:db8:1:2::/64');
    expect(addressBudgetKey('::1')).toBe('0:0:0:0::/64');
    expect(addressBudgetKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('parses TRUSTED_PROXIES: empty by default, CIDR ranges, one line naming it when invalid', () => {
    expect(loadConfig({}).limits.trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '' }).limits.trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' }).limits.trustedProxies).toEqual(['10.0.0.0/8', 'fd00::/8']);
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'proxy.internal/8', '10.0.0.0/8,,x']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(/^TRUSTED_PROXIES: [^\n]+$/);
    }
  });

  it('parses TOKEN_PREFIX_FAILURES_PER_MINUTE', () => {
    expect(loadConfig({}).limits.tokenPrefixFailuresPerMinute).toBe(10);
    expect(loadConfig({ TOKEN_PREFIX_FAILURES_PER_MINUTE: '4' }).limits.tokenPrefixFailuresPerMinute).toBe(4);
    expect(() => loadConfig({ TOKEN_PREFIX_FAILURES_PER_MINUTE: '0' })).toThrow(/^TOKEN_PREFIX_FAILURES_PER_MINUTE: /);
  });
});

describe('start-up with an invalid TRUSTED_PROXIES', () => {
  it('stops the CLI with exit 1 and one line naming the variable', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['bin/shiftgate.js', 'serve'], {
      env: { ...process.env, TRUSTED_PROXIES: '10.0.0.0/8, the-load-balancer', DATABASE_URL: 'sqlite::memory:' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/TRUSTED_PROXIES: .*the-load-balancer/);
  });
});
