import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';

// The settings that say which addresses to believe and where to listen (server/config/trust-proxy.ts,
// server/config/config-values.ts); the refusals of every setting are in ./config.test.ts.

describe('addresses in the configuration', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['2', 2],
    ['loopback', 'loopback'],
    ['loopback,10.0.0.0/8, fd00::/8', 'loopback, 10.0.0.0/8, fd00::/8'],
    ['10.1.2.3/255.255.0.0', '10.1.2.3/255.255.0.0'],
  ])('accepts TRUST_PROXY=%s as a hop count or addresses', (raw, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy);
  });

  it.each(['localhost', 'metrics.internal', '127.0.0.1:9464', '999.1.1.1', '[::1]', ' 127.0.0.1', 'http://0.0.0.0', '0x7f.1'])(
    'refuses METRICS_HOST=%j: an IP address only',
    (raw) => {
      expect(() => loadConfig({ METRICS_HOST: raw })).toThrow(
        expect.objectContaining({
          name: 'ConfigError',
          message: `Invalid METRICS_HOST=${JSON.stringify(raw)}: expected an IP address such as 127.0.0.1, or 0.0.0.0 for every interface`,
        }),
      );
    },
  );

  it('listens on loopback in development and on every interface elsewhere, unless HOST says', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
  });

  it.each(['127.0.0.1', '0.0.0.0', '10.1.2.3', '::1', '::', 'fd00::7'])('accepts METRICS_HOST=%s', (raw) => {
    expect(loadConfig({ METRICS_HOST: raw }).metricsHost).toBe(raw);
  });
});
