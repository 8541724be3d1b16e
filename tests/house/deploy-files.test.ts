// The deployment files a user takes as they are: valid against the Kubernetes API schemas
// (kubernetes-models), consistent with the server's own configuration and shutdown timings.
// compose.yaml itself is run by tests/scale-out/compose.test.ts; what a platform team asks of the
// manifests (spread, autoscaler, policies, monitoring) is kubernetes-platform.test.ts, and the
// PostgreSQL the pods share (postgres.yaml) is postgres-deploy-files.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet, type IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { containerEnv, DATABASE_SECRET, documentedDatabaseUrl, find, manifests as documents, POSTGRES } from './kubernetes-files.ts';

/** What server/telemetry/sentry.ts allows for its flush at shutdown. */
const SENTRY_FLUSH_S = 2;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'apps/v1 StatefulSet': StatefulSet,
  'v1 Service': Service,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
};

describe('deploy/kubernetes', () => {
  it('every document is valid against the Kubernetes API schema of its kind', () => {
    const docs = documents();
    const kinds = [
      'Deployment',
      'Deployment',
      'Deployment',
      'HorizontalPodAutoscaler',
      'NetworkPolicy',
      'NetworkPolicy',
      'NetworkPolicy',
      'NetworkPolicy',
      'PersistentVolumeClaim',
      'PersistentVolumeClaim',
      'PodDisruptionBudget',
      'Service',
      'Service',
      'Service',
      'Service',
      'StatefulSet',
    ];
    expect(docs.map(({ doc }) => doc.kind).sort()).toEqual(kinds);
    for (const { file, doc } of docs) {
      const Model = MODELS[`${doc.apiVersion} ${doc.kind}`];
      expect(Model, `${file}: ${doc.apiVersion} ${doc.kind}`).toBeDefined();
      expect(() => new Model!(doc as never).validate(), file).not.toThrow();
    }
  });

  it('the schema check catches a wrong type (it is a real check)', () => {
    const deployment = find<IDeployment>('Deployment');
    const broken = structuredClone(deployment);
    (broken.spec!.template.spec!.containers[0]!.ports![0] as { containerPort: unknown }).containerPort = 'http';
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
    const postgres = structuredClone(find<IStatefulSet>('StatefulSet', POSTGRES));
    (postgres.spec!.volumeClaimTemplates![0]!.spec! as { accessModes: unknown }).accessModes = 'ReadWriteOnce';
    expect(() => new StatefulSet(postgres).validate()).toThrow(/accessModes/);
  });

  it('runs two non-root replicas on a read-only root, probed on /healthz and /readyz, with DIGEST_KEY and SESSION_SECRET from a Secret', () => {
    const { spec } = find<IDeployment>('Deployment');
    const pod = spec!.template.spec!;
    const [app] = pod.containers;
    // Two at least, counted by the autoscaler: a `replicas` here would reset its count at every apply.
    expect(spec!.replicas).toBeUndefined();
    expect(find<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler').spec!.minReplicas).toBe(2);
    expect(spec!.strategy).toMatchObject({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(app!.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(app!.livenessProbe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(app!.readinessProbe?.httpGet).toMatchObject({ path: '/readyz', port: 'http' });
    expect(app!.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(app!.resources?.limits).toMatchObject({ memory: expect.any(String) });
    // Shared by every pod, or a session (or a digest) made by one is not recognised by the other.
    for (const key of ['DIGEST_KEY', 'SESSION_SECRET']) {
      expect(app!.env?.find((env) => env.name === key)?.valueFrom?.secretKeyRef, key).toMatchObject({ name: expect.any(String), key });
    }
    expect(app!.ports?.map((port) => port.name)).toEqual(expect.arrayContaining(['http', 'metrics']));
  });

  it('its environment passes the server config validation, and the grace period covers delay + drain + flush', () => {
    const { spec } = find<IDeployment>('Deployment');
    const pod = spec!.template.spec!;
    const config = loadConfig({ NODE_ENV: 'production', ...containerEnv(pod.containers[0]!) });
    // Served over https by the ingress: the session cookie is Secure and __Host-session (server/writes/session.ts).
    expect(config.publicOrigin).toMatch(/^https:\/\//);
    expect(config.sessionSecrets).toBeDefined();
    expect(config.metricsPort).toBe(Number(pod.containers[0]!.ports!.find((port) => port.name === 'metrics')!.containerPort));
    expect(config.port).toBe(Number(pod.containers[0]!.ports!.find((port) => port.name === 'http')!.containerPort));
    const neededS = (config.shutdownDelayMs + config.shutdownGraceMs) / 1000 + SENTRY_FLUSH_S;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(neededS);
    // The readiness probe must see the 503 within the delay, or traffic arrives after the listener closed.
    const probe = pod.containers[0]!.readinessProbe!;
    expect((probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3) * 1000).toBeLessThan(config.shutdownDelayMs);
  });

  it("keeps DATABASE_PATH, the pod's own file if run without DATABASE_URL, on a writable emptyDir, not the read-only root", () => {
    const pod = find<IDeployment>('Deployment').spec!.template.spec!;
    const [app] = pod.containers;
    const { databasePath } = loadConfig({ NODE_ENV: 'production', ...containerEnv(app!) });
    const mount = app!.volumeMounts!.find((item) => databasePath.startsWith(`${item.mountPath}/`));
    expect(mount, databasePath).toBeDefined();
    expect(mount!.readOnly).not.toBe(true);
    expect(pod.volumes!.find((volume) => volume.name === mount!.name)?.emptyDir).toMatchObject({ sizeLimit: expect.any(String) });
  });

  it('the Deployment takes DATABASE_URL from the Secret, never a value written here, and no Secret is committed', () => {
    const [app] = find<IDeployment>('Deployment').spec!.template.spec!.containers;
    const url = app!.env!.find((item) => item.name === 'DATABASE_URL');
    expect(url?.value, 'a URL written here would carry its password').toBeUndefined();
    expect(url?.valueFrom?.secretKeyRef).toEqual({ name: DATABASE_SECRET, key: 'url' });
    // With it, the host opens PostgreSQL (server/data/database.ts), the URL the operator was told to make.
    const config = loadConfig({ NODE_ENV: 'production', ...containerEnv(app!) });
    expect(config.postgres?.url).toBe(documentedDatabaseUrl());
    expect(documents().filter(({ doc }) => doc.kind === 'Secret')).toEqual([]);
  });

  it('the Service selects the pods and targets their http port', () => {
    const deployment = find<IDeployment>('Deployment');
    const service = find<IService>('Service');
    expect(deployment.spec!.template.metadata!.labels).toMatchObject(service.spec!.selector!);
    expect(service.spec!.ports!.map((port) => port.targetPort)).toEqual(['http']);
  });
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
  const balancer = compose.services.balancer!.environment!;
  /** `${NAME:-default}` is its default; a required `${NAME:?message}`, a value long enough for any secret. */
  const substitute = (value: string) =>
    String(value).replace(
      /\$\{\w+(?::-([^}]*))?[^}]*\}/g,
      (_all, fallback: string | undefined) => fallback ?? 'compose-variable-0123456789-0123456789',
    );
  const substituted = (raw: Record<string, string>) =>
    Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, substitute(value)]));

  it("each replica's environment passes the server config validation and trusts only the balancer", () => {
    expect(replicas).toHaveLength(2);
    for (const [, service] of replicas) {
      const config = loadConfig({ NODE_ENV: 'production', ...substituted(service.environment!) });
      expect(config.trustProxy).toBe(balancer.BALANCER_SOURCE);
      expect(config.sharedAssetsDir).toBeDefined();
    }
  });

  it("keeps each replica's database file in a named volume of its own, beside the shared assets", () => {
    const named = replicas.map(([name, service]) => {
      const { databasePath, sharedAssetsDir } = loadConfig({ NODE_ENV: 'production', ...substituted(service.environment!) });
      const mounts = (service.volumes ?? []).map((item) => item.split(':') as [string, string]);
      // Listed per replica: compose does not merge a list from the anchor, so the assets must be there too.
      expect(
        mounts.map(([, target]) => target),
        name,
      ).toContain(sharedAssetsDir);
      const data = mounts.find(([, target]) => databasePath.startsWith(`${target}/`));
      expect(data, `${name}: ${databasePath}`).toBeDefined();
      expect(compose.volumes, name).toHaveProperty(data![0]);
      return data![0];
    });
    expect(new Set(named).size).toBe(replicas.length);
  });

  it('the replicas share a required SESSION_SECRET and DIGEST_KEY, and know the origin the balancer serves', () => {
    const [first, second] = replicas.map(([, service]) => service.environment!);
    for (const key of ['DIGEST_KEY', 'SESSION_SECRET']) {
      // Required (`${NAME:?...}`): compose refuses to start without it, rather than each replica inventing its own.
      expect(first![key], key).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
      expect(second![key], key).toBe(first![key]);
    }
    expect(second!.PUBLIC_ORIGIN).toBe(first!.PUBLIC_ORIGIN);
    // By default, the origin is where the balancer listens by default.
    const bind = /:\$\{BALANCER_PORT:-(\d+)\}$/.exec(balancer.HAPROXY_BIND!)?.[1];
    const config = loadConfig({ NODE_ENV: 'production', ...substituted(first!) });
    expect(config.publicOrigin).toBe(`http://127.0.0.1:${bind}`);
    expect(config.sessionSecrets).toBeDefined();
  });
});
