// The fleet's two Redis servers as the deploy files run them (docs/deploy.md, "Redis"): the
// state (REDIS_URL) never evicting, the stored pages (CACHE_REDIS_URL) a cache, each on a server
// of its own, nothing on disk, bounded, and at the URLs the app's configuration accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IService } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { containerEnv, find } from './kubernetes-files.ts';

/** Redis's arguments (`--name value` pairs) as a map. */
function redisFlags(args: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) flags.set(args[i]!.replace(/^--/, ''), args[i + 1]!);
  return flags;
}

/** Bytes of a Redis size (`256mb`: Redis's mb is 1024², redis.conf's units) or a Kubernetes quantity (`384Mi`). */
function bytes(size: string): number {
  const [, amount, unit] = /^(\d+)(mb|gb|Mi|Gi)$/.exec(size) ?? [];
  expect(amount, size).toBeDefined();
  return Number(amount) * 1024 ** (unit === 'gb' || unit === 'Gi' ? 3 : 2);
}

/**
 * What the docs ask of the fleet's two Redis servers (docs/deploy.md, "Redis"): nothing on disk,
 * bounded; the state's never evicting (a window dropped is a limit got around), the stored
 * pages' least recently used out (a cache).
 */
const EVICTION: Record<'state' | 'pages', string> = { state: 'noeviction', pages: 'allkeys-lru' };
function expectStoreFlags(flags: Map<string, string>, role: 'state' | 'pages'): number {
  expect(flags.get('save'), 'no snapshots').toBe('');
  expect(flags.get('appendonly'), 'no append-only file').toBe('no');
  expect(flags.get('maxmemory-policy'), role).toBe(EVICTION[role]);
  return bytes(flags.get('maxmemory')!);
}

describe('deploy/kubernetes', () => {
  it.each([
    ['state', 'react-ssr-host-redis', 'redisUrl'],
    ['pages', 'react-ssr-host-redis-pages', 'pagesRedisUrl'],
  ] as const)(
    'the %s Redis for the pods: its own server, keeping nothing on disk, bounded under its memory limit, for the app alone',
    (role, name, url) => {
      const redis = find<IDeployment>('Deployment', name);
      const service = find<IService>('Service', name);
      const policy = find<INetworkPolicy>('NetworkPolicy', name);
      const app = find<IDeployment>('Deployment');
      const pod = redis.spec!.template.spec!;
      const [container] = pod.containers;
      expect(redis.spec!.replicas).toBe(1);
      const maxmemory = expectStoreFlags(redisFlags(container!.args!), role);
      // maxmemory counts the data only: the limit leaves room for buffers and fragmentation.
      expect(bytes(String(container!.resources!.limits!.memory))).toBeGreaterThanOrEqual(1.25 * maxmemory);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
      expect(container!.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      expect(redis.spec!.template.metadata!.labels).toMatchObject(service.spec!.selector!);

      // loadConfig refuses the two URLs on one server: passing it is part of the check.
      const env = containerEnv(app.spec!.template.spec!.containers[0]!);
      const at = new URL(loadConfig({ NODE_ENV: 'production', ...env }).cache[url]!);
      expect(at.hostname).toBe(service.metadata!.name);
      expect(Number(at.port)).toBe(service.spec!.ports![0]!.port);
      // The policy guards the Redis pod and lets the app's pods in.
      expect(redis.spec!.template.metadata!.labels).toMatchObject(policy.spec!.podSelector.matchLabels!);
      expect(app.spec!.template.metadata!.labels).toMatchObject(policy.spec!.ingress![0]!.from![0]!.podSelector!.matchLabels!);
    },
  );
});

describe('deploy/compose.yaml', () => {
  const compose = parse(readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8')) as {
    services: Record<
      string,
      { environment?: Record<string, string>; volumes?: string[]; command?: string[]; build?: { dockerfile: string }; read_only?: boolean }
    >;
    volumes: Record<string, unknown>;
  };
  const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('app'));
  /** `${NAME:-default}` is its default; a required `${NAME:?message}`, a value long enough for any secret. */
  const substitute = (value: string) =>
    String(value).replace(
      /\$\{\w+(?::-([^}]*))?[^}]*\}/g,
      (_all, fallback: string | undefined) => fallback ?? 'compose-variable-0123456789-0123456789',
    );
  const substituted = (raw: Record<string, string>) =>
    Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, substitute(value)]));

  it.each([
    ['state', 'redis', 'redisUrl'],
    ['pages', 'redis-pages', 'pagesRedisUrl'],
  ] as const)(
    "the replicas share the %s Redis, built from Debian's package, keeping nothing on disk, bounded, at their URL",
    (role, name, url) => {
      const redis = compose.services[name]!;
      const [command, ...args] = redis.command!.map(substitute);
      expect(command).toBe('redis-server');
      const flags = redisFlags(args);
      expectStoreFlags(flags, role);
      expect(redis.read_only).toBe(true);
      const urls = replicas.map(([, service]) => loadConfig({ NODE_ENV: 'production', ...substituted(service.environment!) }).cache[url]);
      expect(new Set(urls).size).toBe(1);
      const at = new URL(urls[0]!);
      expect([at.hostname, at.port]).toEqual([flags.get('bind'), flags.get('port')]);
      // Built as the balancer is: no Redis image is needed from a registry (the official redis:7 does the same job).
      const containerfile = readFileSync(join(ROOT, 'deploy', redis.build!.dockerfile), 'utf8');
      expect(containerfile).toMatch(/apt-get install [^\n]*redis-server/);
      expect(containerfile).toMatch(/^USER redis$/m);
    },
  );
});
