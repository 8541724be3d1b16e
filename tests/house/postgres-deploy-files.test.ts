// PostgreSQL as deploy/kubernetes/ runs it (postgres.yaml; docs/deploy.md, "PostgreSQL in
// Kubernetes"): one database every pod shares, reached at the URL the operator is told to put in
// the Secret, kept on a claim, closed to all but the app, and with room for every pod's pool.
// deploy-files.test.ts validates these documents against their schemas and checks the
// Deployment's side (DATABASE_URL from the Secret).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { IService } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import {
  containerEnv,
  databaseSecretCommands,
  DATABASE_SECRET,
  documentedDatabaseUrl,
  find,
  manifests as documents,
  POSTGRES,
  SECRET_STAND_IN,
} from './kubernetes-files.ts';

/** The official image's postgres user and group (its Dockerfile: `useradd --uid=999`, `groupadd --gid=999`). */
const POSTGRES_UID = 999;
/** PostgreSQL's port, which the URL, the Service and the NetworkPolicy must agree on. */
const POSTGRES_PORT = 5432;
/** Connections left free while every pod's pool is full: an operator's psql and a pg_dump. */
const OPERATOR_CONNECTIONS = 2;

describe('deploy/kubernetes: one PostgreSQL for every pod', () => {
  const postgresPod = () => find<IStatefulSet>('StatefulSet', POSTGRES).spec!.template;
  const valueOf = (name: string) => postgresPod().spec!.containers[0]!.env!.find((item) => item.name === name);

  it("the documented Secret's URL reaches the Service as the user and database the StatefulSet creates, with the password it reads", () => {
    const url = new URL(documentedDatabaseUrl());
    const service = find<IService>('Service', POSTGRES);
    const [postgres] = postgresPod().spec!.containers;
    expect(url.hostname).toBe(service.metadata!.name);
    expect(service.spec!.ports).toEqual([{ name: 'postgres', port: POSTGRES_PORT, targetPort: 'postgres' }]);
    expect(Number(url.port)).toBe(POSTGRES_PORT);
    expect(postgres!.ports).toEqual([{ name: 'postgres', containerPort: POSTGRES_PORT }]);
    expect(postgresPod().metadata!.labels).toMatchObject(service.spec!.selector!);
    expect(url.username).toBe(valueOf('POSTGRES_USER')?.value);
    expect(url.pathname).toBe(`/${valueOf('POSTGRES_DB')?.value}`);
    expect(valueOf('POSTGRES_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({ name: DATABASE_SECRET, key: 'password' });
    // One password, in both keys: the URL's is the one the database was created with.
    expect(url.password).toBe(SECRET_STAND_IN);
    const commands = [
      ...databaseSecretCommands(readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8')),
      ...databaseSecretCommands(readFileSync(join(ROOT, 'deploy/kubernetes/deployment.yaml'), 'utf8')),
    ];
    expect(commands.length, 'docs/deploy.md twice, deployment.yaml once').toBe(3);
    expect(new Set(commands).size, 'the same command wherever it is written').toBe(1);
    expect(commands[0]).toContain('--from-literal=password="$password"');
  });

  it('runs one non-root pod of the official image, its data on a persistent volume claim (PGDATA a folder in it), probed with pg_isready', () => {
    const statefulSet = find<IStatefulSet>('StatefulSet', POSTGRES);
    const pod = statefulSet.spec!.template.spec!;
    const [postgres] = pod.containers;
    expect(statefulSet.spec!.replicas).toBe(1);
    expect(statefulSet.spec!.serviceName).toBe(POSTGRES);
    expect(postgres!.image).toBe('docker.io/library/postgres:15');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: POSTGRES_UID,
      runAsGroup: POSTGRES_UID,
      fsGroup: POSTGRES_UID,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(postgres!.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    // The data on a claim of the pod's own, kept when the StatefulSet goes; PGDATA below its mount,
    // since initdb refuses a volume's root holding lost+found.
    const pgdata = valueOf('PGDATA')?.value ?? '';
    const mount = postgres!.volumeMounts!.find((item) => pgdata.startsWith(`${item.mountPath}/`));
    expect(mount, pgdata).toBeDefined();
    const claim = statefulSet.spec!.volumeClaimTemplates!.find((item) => item.metadata!.name === mount!.name);
    expect(claim?.spec).toMatchObject({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: expect.any(String) } } });
    expect(pod.volumes!.map((volume) => volume.name)).not.toContain(mount!.name);
    expect(statefulSet.spec!.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    // Where the server writes beside its data, on a read-only root: its socket and lock file.
    expect(postgres!.volumeMounts!.map((item) => item.mountPath)).toContain('/var/run/postgresql');
    for (const probe of [postgres!.startupProbe, postgres!.readinessProbe, postgres!.livenessProbe]) {
      expect(probe?.exec?.command?.join(' ')).toMatch(/\bpg_isready\b/);
    }
    expect(postgres!.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(postgres!.resources?.limits).toMatchObject({ memory: expect.any(String) });
  });

  it("admits the app's pods to PostgreSQL's port, and nothing else to PostgreSQL", () => {
    const app = find<IDeployment>('Deployment');
    const policy = find<INetworkPolicy>('NetworkPolicy', POSTGRES);
    const labels = postgresPod().metadata!.labels!;
    expect(labels).toMatchObject(policy.spec!.podSelector.matchLabels!);
    expect(policy.spec!.policyTypes).toEqual(['Ingress']);
    // One rule, one source: no namespaceSelector or ipBlock beside it, no rule without `from`.
    expect(policy.spec!.ingress).toEqual([
      { from: [{ podSelector: { matchLabels: app.spec!.selector.matchLabels } }], ports: [{ port: 'postgres' }] },
    ]);
    expect(app.spec!.template.metadata!.labels).toMatchObject(app.spec!.selector.matchLabels!);
    // Policies add up: any other that selected PostgreSQL's pod would let its own sources in too.
    const others = documents().filter(({ doc }) => doc.kind === 'NetworkPolicy' && doc.metadata.name !== POSTGRES);
    for (const { doc } of others) {
      const selector = (doc as unknown as INetworkPolicy).spec!.podSelector.matchLabels ?? {};
      expect(
        Object.entries(selector).every(([key, value]) => labels[key] === value),
        doc.metadata.name,
      ).toBe(false);
    }
  });

  it("the pods' pools fit in max_connections through a roll at the autoscaler's most, with room for a psql and a pg_dump", () => {
    const deployment = find<IDeployment>('Deployment');
    const { poolMax } = loadConfig({ NODE_ENV: 'production', ...containerEnv(deployment.spec!.template.spec!.containers[0]!) }).postgres!;
    const maxConnections = Number(/(?:^| )max_connections=(\d+)(?: |$)/.exec(postgresPod().spec!.containers[0]!.args!.join(' '))?.[1]);
    expect(maxConnections, "postgres.yaml's max_connections").toBeGreaterThan(0);
    const maxSurge = deployment.spec!.strategy!.rollingUpdate!.maxSurge;
    expect(typeof maxSurge, 'a number of pods, not a percentage').toBe('number');
    // A roll starts new pods while old ones still drain with their pools open (a Deployment counts
    // no terminating pod: kubernetes/kubernetes#107920), so as many again as the autoscaler's most.
    const pods = 2 * find<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler').spec!.maxReplicas + (maxSurge as number);
    expect(pods * poolMax).toBeLessThanOrEqual(maxConnections - OPERATOR_CONNECTIONS);
  });
});
