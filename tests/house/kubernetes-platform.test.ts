// What a platform team asks of deploy/kubernetes/ before it runs in their cluster: replicas on
// two nodes, an autoscaler, the metrics port closed to all but Prometheus, no service-account
// token, readiness that outlasts one slow answer, a release that cannot drift from the image, and
// the Prometheus Operator's PodMonitor and PrometheusRule, the rules the same as
// deploy/prometheus/alerts.yaml. The operator's kinds are not in kubernetes-models: their shape
// is checked here field by field. compose.yaml's release is checked at the end.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config/config.ts';
import { ROOT } from '../../tools/harness/paths.ts';
import { PROMETHEUS_RULE_FILE, RULES_FILE } from '../../tools/prometheus-rule.ts';
import { find, K8S_DIR, kustomization, manifests, MONITORING_DIR } from './kubernetes-files.ts';

/** The label the rules select (deploy/prometheus/alerts.yaml): the pod label PodMonitor copies, as Prometheus spells it. */
const RULES_LABEL = { pod: 'app.kubernetes.io/name', series: 'app_kubernetes_io_name' };
/** A readiness answer may be this late without counting as a failure: a GC pause and a render, at the pod's CPU share. */
const READINESS_TIMEOUT_MIN_S = 2;
/** The namespace whose Prometheus may scrape (network-policy.yaml's documented assumption). */
const MONITORING_NAMESPACE = 'monitoring';
/** PodMonitor's spec fields (Prometheus Operator, monitoring.coreos.com/v1) that these files use or may. */
const POD_MONITOR_FIELDS = new Set(['selector', 'namespaceSelector', 'podMetricsEndpoints', 'podTargetLabels', 'jobLabel', 'sampleLimit']);

const yamlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .sort();
const app = () => find<IDeployment>('Deployment');
const podOf = (deployment: IDeployment) => deployment.spec!.template;
const rulesOf = (text: string) => (parse(text) as { groups: unknown }).groups;

describe('deploy/kubernetes, as a platform team reviews it', () => {
  it('applies with kubectl apply -k: each kustomization lists every manifest beside it', () => {
    expect([...kustomization().resources].sort()).toEqual(yamlFiles(K8S_DIR));
    expect([...kustomization(MONITORING_DIR).resources].sort()).toEqual(yamlFiles(MONITORING_DIR));
  });

  it('puts the replicas on different nodes, and spreads them over zones where there are some', () => {
    const template = podOf(app());
    const spread = template.spec!.topologySpreadConstraints ?? [];
    const byKey = Object.fromEntries(spread.map((constraint) => [constraint.topologyKey, constraint]));
    expect(byKey['kubernetes.io/hostname']).toMatchObject({ maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' });
    expect(byKey['topology.kubernetes.io/zone']).toMatchObject({ maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' });
    for (const constraint of spread) expect(template.metadata!.labels).toMatchObject(constraint.labelSelector!.matchLabels!);
  });

  it('scales on CPU from two replicas (autoscaling/v2), above what the disruption budget keeps', () => {
    const hpa = find<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
    expect(hpa.spec!.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app().metadata!.name });
    expect(hpa.spec!.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec!.maxReplicas).toBeGreaterThan(hpa.spec!.minReplicas!);
    expect(hpa.spec!.metrics).toContainEqual(
      expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
    );
    expect(find<IPodDisruptionBudget>('PodDisruptionBudget').spec!.minAvailable).toBeLessThan(hpa.spec!.minReplicas!);
  });

  it("admits the app's port from anywhere and the metrics port only from Prometheus in the monitoring namespace", () => {
    const policy = find<INetworkPolicy>('NetworkPolicy');
    const template = podOf(app());
    expect(template.metadata!.labels).toMatchObject(policy.spec!.podSelector.matchLabels!);
    expect(policy.spec!.policyTypes).toContain('Ingress');
    const ports = new Set(template.spec!.containers[0]!.ports!.map((port) => port.name));
    const rules = policy.spec!.ingress!;
    for (const rule of rules) for (const port of rule.ports ?? []) expect(ports).toContain(port.port);
    const admitting = (port: string) => rules.filter((rule) => (rule.ports ?? []).some((item) => item.port === port));
    expect(admitting('http').some((rule) => rule.from === undefined)).toBe(true);
    const metrics = admitting('metrics');
    expect(metrics.length).toBeGreaterThan(0);
    for (const rule of metrics) {
      // Both selectors in one element: Prometheus's pods in that namespace, not any pod there nor any Prometheus.
      expect(rule.from).toEqual([
        {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': MONITORING_NAMESPACE } },
          podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
        },
      ]);
    }
    // No rule without ports lets everything in, the metrics port with it.
    expect(rules.filter((rule) => rule.ports === undefined)).toEqual([]);
  });

  it('mounts no service-account token in any pod: nothing here calls the Kubernetes API', () => {
    // The StatefulSet's pod template is where the Deployment's is (spec.template).
    const workloads = manifests().filter(({ doc }) => doc.kind === 'Deployment' || doc.kind === 'StatefulSet');
    expect(workloads.length).toBeGreaterThan(0);
    for (const { doc } of workloads) {
      expect(podOf(doc as unknown as IDeployment).spec!.automountServiceAccountToken, doc.metadata.name).toBe(false);
    }
  });

  it('keeps a replica ready through one slow answer: readiness fails twice before it is out', () => {
    const probe = podOf(app()).spec!.containers[0]!.readinessProbe!;
    expect(probe.failureThreshold).toBeGreaterThan(1);
    expect(probe.timeoutSeconds).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MIN_S);
    // One probe at a time: a timeout past the period would only delay the next.
    expect(probe.timeoutSeconds).toBeLessThanOrEqual(probe.periodSeconds!);
  });

  it('takes RELEASE from the image: the tag is written once (kustomization.yaml), the Deployment has no RELEASE', () => {
    const [container] = podOf(app()).spec!.containers;
    expect(container!.env!.map((item) => item.name)).not.toContain('RELEASE');
    expect(container!.image, "a tag beside kustomization.yaml's would be a second place").not.toMatch(/[:@][\w.-]+$/);
    const images = kustomization().images ?? [];
    expect(images.find((image) => image.name === container!.image)).toMatchObject({ newTag: expect.any(String) });
    // The image sets RELEASE from the version it was built as, whatever runs it.
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^ARG VERSION=dev$/m);
    expect(runtime).toMatch(/^ENV RELEASE=react-ssr-host@\$\{VERSION\}$/m);
    for (const image of images)
      expect(loadConfig({ RELEASE: `react-ssr-host@${image.newTag}` }).release).toBe(`react-ssr-host@${image.newTag}`);
  });
});

describe('deploy/kubernetes/monitoring', () => {
  it("a PodMonitor scrapes the app's pods on their metrics port and copies the label the rules select", () => {
    const monitor = find<{ apiVersion: string; spec: Record<string, unknown> }>('PodMonitor', 'react-ssr-host', MONITORING_DIR);
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(Object.keys(monitor.spec).filter((key) => !POD_MONITOR_FIELDS.has(key))).toEqual([]);
    const spec = monitor.spec as {
      selector: { matchLabels: Record<string, string> };
      podTargetLabels: string[];
      podMetricsEndpoints: { port: string; path: string; interval: string }[];
    };
    const template = podOf(app());
    expect(template.metadata!.labels).toMatchObject(spec.selector.matchLabels);
    const portNames = template.spec!.containers[0]!.ports!.map((port) => port.name);
    expect(spec.podMetricsEndpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: expect.stringMatching(/^\d+[smh]$/) }]);
    expect(portNames).toContain(spec.podMetricsEndpoints[0]!.port);
    // The label the rules select is the pod's own, copied by podTargetLabels, with the pod's value.
    expect(spec.podTargetLabels).toContain(RULES_LABEL.pod);
    const value = template.metadata!.labels![RULES_LABEL.pod]!;
    expect(readFileSync(RULES_FILE, 'utf8')).toContain(`${RULES_LABEL.series}="${value}"`);
  });

  it('a PrometheusRule carries exactly the rules of deploy/prometheus/alerts.yaml', () => {
    const rule = find<{ apiVersion: string; spec: Record<string, unknown> }>('PrometheusRule', 'react-ssr-host', MONITORING_DIR);
    expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(Object.keys(rule.spec)).toEqual(['groups']);
    expect(rule.spec.groups, 'the two differ: edit alerts.yaml, then run `npx tsx tools/prometheus-rule.ts`').toEqual(
      rulesOf(readFileSync(RULES_FILE, 'utf8')),
    );
  });

  it('that comparison is real: one threshold changed in alerts.yaml is a difference', () => {
    const changed = rulesOf(readFileSync(RULES_FILE, 'utf8').replace('> 0.05', '> 0.5'));
    const carried = (parse(readFileSync(PROMETHEUS_RULE_FILE, 'utf8')) as { spec: { groups: unknown } }).spec.groups;
    expect(carried).not.toEqual(changed);
  });
});

describe('deploy/compose.yaml', () => {
  it('builds, tags and names the release from one required RELEASE', () => {
    type Service = { image?: string; build?: { args?: Record<string, string> }; environment?: Record<string, string> };
    const compose = parse(readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as {
      'x-app': Service;
      services: Record<string, Service>;
    };
    // `<<: *app` merged, as compose reads it: each replica's image and build are x-app's.
    const tag = /:(\$\{RELEASE:\?[^}]+\})$/.exec(compose['x-app'].image!)?.[1];
    expect(tag, 'the image tag is a required ${RELEASE:?…}').toBeDefined();
    const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('app'));
    expect(replicas).toHaveLength(2);
    for (const [name, service] of replicas) {
      expect(service.build?.args?.VERSION, name).toBe(tag);
      expect(service.environment?.RELEASE, name).toBe(`react-ssr-host@${tag}`);
    }
  });
});
