// Writes deploy/kubernetes/monitoring/prometheus-rule.yaml from deploy/prometheus/alerts.yaml, so
// the Prometheus Operator's copy of the rules is never edited by hand:
//   npx tsx tools/prometheus-rule.ts
// tests/house/kubernetes-platform.test.ts fails when the two carry different rules.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse, stringify } from 'yaml';
import { ROOT } from './harness/paths.ts';

export const RULES_FILE = join(ROOT, 'deploy/prometheus/alerts.yaml');
export const PROMETHEUS_RULE_FILE = join(ROOT, 'deploy/kubernetes/monitoring/prometheus-rule.yaml');

const HEADER = `# GENERATED from deploy/prometheus/alerts.yaml by tools/prometheus-rule.ts: edit the rules
# there, then run \`npx tsx tools/prometheus-rule.ts\`. The rules, their thresholds and why are
# explained in that file; their promtool tests are deploy/prometheus/alerts.test.yaml. Your
# Prometheus must select this object: its ruleSelector (kube-prometheus-stack's default wants
# \`release: <its release name>\` among the labels) and ruleNamespaceSelector.
`;

/** The PrometheusRule document that carries `groups`, the rule groups of alerts.yaml. */
export function prometheusRule(groups: unknown): object {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'react-ssr-host', labels: { 'app.kubernetes.io/name': 'react-ssr-host' } },
    spec: { groups },
  };
}

async function write(): Promise<void> {
  const { groups } = parse(readFileSync(RULES_FILE, 'utf8')) as { groups: unknown };
  // lineWidth 0: an expression stays on its lines, as written in alerts.yaml.
  const text = HEADER + stringify(prometheusRule(groups), { lineWidth: 0 });
  const options = await resolveConfig(PROMETHEUS_RULE_FILE);
  writeFileSync(PROMETHEUS_RULE_FILE, await format(text, { ...options, filepath: PROMETHEUS_RULE_FILE }));
  console.log(`wrote ${PROMETHEUS_RULE_FILE}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await write();
