import { domainToUnicode } from 'node:url';
// Class: a Host (or trusted X-Forwarded-Host / X-Forwarded-Proto) that passes a host-name check
// but that the WHATWG URL parser rejects or rewrites. Such a value must be a 400 with a clear
// reason, never a 500 with a digest; every other value is served. The oracle is the URL parser
// itself, over a generated corpus.
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { FALLBACK_HOSTNAME, serverErrorMessage } from '../../shared/messages.ts';
import { createTestApp, DIAG, type TestApp } from '../support/test-app.ts';

/** A page whose loader redirects to /fixture/after (the fixture app's tests/apps/host/app/writes.server.ts). */
const REDIRECTING = '/writes?do=redirect-with-cookies';

/** The names an attacker (or a confused proxy) sends: IPv4 forms, numbers, punycode, case, IPv6. */
function hostCorpus(): string[] {
  const numbers = ['0', '1', '08', '0x7f', '0X10', '0177', '255', '256', '999', '4294967295', '4294967296', '99999999999', '0x'];
  const hosts = new Set<string>(['localhost', 'Example.COM', 'example.com.', 'shop.example.com', 'a-b.example', 'under_score.example']);
  for (const a of numbers) {
    hosts.add(a);
    for (const b of numbers.slice(0, 6)) hosts.add(`${a}.${b}`);
  }
  for (const ip of ['1.2.3.4', '1.2.3.4.5', '999.1.1.1', '127.0.0.1', '127.1', '0x7f.1', '1.2.3.0x4', '1.2.3.4.']) hosts.add(ip);
  for (const name of ['example.123', 'example.0x1', 'a.b.1', 'example.1a', '123.example']) hosts.add(name);
  for (const name of [
    'xn--',
    'xn--a',
    'xn--abc-',
    'xn--zca',
    'xn--bcher-kva.example',
    'XN--BCHER-KVA.example',
    'xn--ls8h.la',
    'xn--a.example',
  ]) {
    hosts.add(name);
  }
  for (const name of ['[::1]', '[0:0::1]', '[::ffff:1.2.3.4]', '[::FFFF:102:304]', '[fe80::1]', '[::1', '::1', '[1.2.3.4]', '[]'])
    hosts.add(name);
  for (const name of ['a@b.example', 'a%41.example', 'a..b', '.example', 'ex ample', 'a:b:c', 'example.com%2f']) hosts.add(name);
  const withPorts = [...hosts].flatMap((host) => [host, `${host}:80`, `${host}:3000`, `${host}:65535`, `${host}:65536`, `${host}:99999`]);
  // Node refuses control characters in a header before it is sent.
  return withPorts.filter((host) => ![...host].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f'));
}

/**
 * Independent of the implementation: the URL parser keeps the host as sent (a default port
 * aside), and its punycode labels decode. Node 20 and 22's parser refused `xn--a` itself; Node
 * 26's keeps it, and the host refuses it as before (server/edge/request-origin.ts).
 */
function urlKeeps(host: string): boolean {
  let url: URL;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    return false;
  }
  const sent = host.toLowerCase();
  const decodes = url.hostname.split('.').every((label) => !label.startsWith('xn--') || domainToUnicode(label) !== label);
  return decodes && (url.host === sent || `${url.host}:80` === sent);
}

describe('a Host the URL parser rejects or rewrites', () => {
  let host: TestApp;
  beforeAll(() => {
    host = createTestApp();
  });

  it('is a 400 with a clear reason, and every other Host is served; nothing is a 500 or a failure line', async () => {
    const corpus = hostCorpus();
    expect(corpus.length).toBeGreaterThan(500);
    let refused = 0;
    for (const value of corpus) {
      // A loader's redirect to /fixture/after: a same-origin decision built on the request's origin.
      const res = await request(host.app).get(REDIRECTING).set('Host', value);
      const expected = urlKeeps(value) ? 302 : 400;
      expect({ value, status: res.status }).toEqual({ value, status: expected });
      if (expected === 400) {
        refused++;
        expect(res.text).toContain('Invalid Host header');
        expect(host.logs.access(res.headers['x-request-id'] as string)).toMatchObject({ status: 400 });
      }
    }
    // Both halves of the corpus are exercised.
    expect(refused).toBeGreaterThan(100);
    expect(corpus.length - refused).toBeGreaterThan(50);
    expect(host.logs.failureCount()).toBe(0);
  });

  it('shows only a plain, valid host name on error pages; an IPv6 literal or a rewritten name is never reflected', async () => {
    const failing = (hostHeader: string) => request(host.app).get('/_diag/server-error').set('Host', hostHeader).set(DIAG).expect(500);
    expect((await failing('Shop.Example.com:8080')).text).toContain(serverErrorMessage('shop.example.com'));
    expect((await failing('[::1]:3000')).text).toContain(serverErrorMessage(FALLBACK_HOSTNAME));
  });
});

describe('a trusted X-Forwarded-Host or X-Forwarded-Proto', () => {
  let host: TestApp;
  beforeAll(() => {
    host = createTestApp({ TRUST_PROXY: 'loopback' });
  });

  it.each(['1.2.3.4.5', '0x7f.1', '123', 'xn--a', 'a@b.example', '[::1'])('refuses a forwarded host %s like a Host: 400', async (value) => {
    const res = await request(host.app).get(REDIRECTING).set('X-Forwarded-Host', value).expect(400);
    expect(res.text).toContain('Invalid Host header');
  });

  it.each(['ftp', 'javascript', 'a b', '', 'HTTP', 'https, http', 'http://x', '\u00e9'])(
    'ignores a forwarded protocol that is not http or https (%j): the redirect is served',
    async (proto) => {
      const res = await request(host.app).get(REDIRECTING).set('X-Forwarded-Proto', proto).set('Host', 'shop.example.com');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/fixture/after');
    },
  );

  it('writes no failure line for any of them', () => {
    expect(host.logs.failureCount()).toBe(0);
  });
});

describe('PUBLIC_ORIGIN', () => {
  it('is the origin of every same-origin decision when set: a forged Host cannot make an off-site target same-origin', async () => {
    const host = createTestApp({ PUBLIC_ORIGIN: 'https://shop.example.com' });
    const diag = { 'x-diagnostics-token': host.config.diagnosticsToken! };
    // The target names the Host the client sent: same-origin only if that Host were believed.
    const refused = await request(host.app).get('/_diag/redirect?to=http://evil.example/x').set('Host', 'evil.example').set(diag);
    expect(refused.status).toBe(500);
    const allowed = await request(host.app).get('/_diag/redirect?to=https://shop.example.com/board').set('Host', 'evil.example').set(diag);
    expect(allowed.status).toBe(302);
    // Error pages show its host name when PUBLIC_HOSTNAME is not set.
    const failed = await request(host.app).get('/_diag/server-error').set('Host', 'evil.example').set(diag).expect(500);
    expect(failed.text).toContain(serverErrorMessage('shop.example.com'));
  });

  it.each([
    ['https://shop.example.com/', 'https://shop.example.com'],
    ['HTTPS://Shop.Example.com', 'https://shop.example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
  ])('accepts %s at boot as %s', (raw, origin) => {
    expect(loadConfig({ PUBLIC_ORIGIN: raw }).publicOrigin).toBe(origin);
  });

  it.each([
    'shop.example.com',
    'ftp://shop.example.com',
    'https://shop.example.com/path',
    'https://shop.example.com?x=1',
    'https://user@shop.example.com',
    'https://shop.example.com:443',
    'https://0x7f.1',
    'https://1.2.3.4.5',
    'https://',
    'javascript:alert(1)',
  ])('refuses %s at boot with a line naming the variable', (raw) => {
    expect(() => loadConfig({ PUBLIC_ORIGIN: raw })).toThrow(`Invalid PUBLIC_ORIGIN=${JSON.stringify(raw)}: expected an origin such as`);
  });
});
