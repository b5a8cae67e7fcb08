import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('live stream configuration', () => {
  it('caps 10 streams per key and 1000 in all by default', () => {
    expect(loadConfig({}).live).toEqual({ maxPerKey: 10, maxStreams: 1000 });
    expect(loadConfig({ LIVE_MAX_STREAMS_PER_KEY: '3', LIVE_MAX_STREAMS: '50' }).live).toEqual({ maxPerKey: 3, maxStreams: 50 });
  });

  it.each([
    ['LIVE_MAX_STREAMS_PER_KEY', '0'],
    ['LIVE_MAX_STREAMS_PER_KEY', 'many'],
    ['LIVE_MAX_STREAMS', '-1'],
    ['LIVE_MAX_STREAMS', '1.5'],
  ])('refuses %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}:`));
  });
});
