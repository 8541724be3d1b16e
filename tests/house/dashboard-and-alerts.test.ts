// deploy/grafana/ and deploy/prometheus/, as a team takes them: the alert rules pass promtool's
// check and their unit tests, every PromQL expression of the dashboard parses, and every metric
// either names is one a running server serves. promtool is Debian's `prometheus` package, which
// .ci/run installs: without it these tests fail and say so, they never skip.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../tools/harness/paths.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const RULES = join(ROOT, 'deploy/prometheus/alerts.yaml');
const RULE_TESTS = join(ROOT, 'deploy/prometheus/alerts.test.yaml');
const DASHBOARD = join(ROOT, 'deploy/grafana/react-ssr-host.json');
const OPERATING = join(ROOT, 'docs/operating.md');
/** What every runbook about failures starts from (docs/operating.md). */
const DIGEST_TOOL = 'react-ssr-host-digest';
/** The alerts whose first step is not the digest tool: nothing failed with a digest. */
const NO_DIGEST = new Set(['ReactSsrHostSharedStoreDown']);
/** Where runbook_url points: a placeholder base, documented in alerts.yaml's header. */
const RUNBOOK_BASE = 'https://git.example.com/react-ssr-host/blob/main/docs/operating.md#';
/** Series Prometheus writes itself for each scrape, not served by the host. */
const SCRAPE_SERIES = new Set(['up']);

interface Rule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
}
interface RuleTest {
  name: string;
  alert_rule_test: { alertname: string; exp_alerts: unknown[] }[];
}
interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool is needed (Debian: apt-get install -y prometheus; .ci/run installs it): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const rules = () => (parse(readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const ruleTests = () => (parse(readFileSync(RULE_TESTS, 'utf8')) as { tests: RuleTest[] }).tests;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorsOf = (markdown: string) =>
  new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) =>
      title!
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replaceAll(' ', '-'),
    ),
  );
const dashboard = () =>
  JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: Panel[]; annotations: { list: { expr: string }[] } };

/** The dashboard's queries with Grafana's variables given values, as Prometheus receives them. */
function dashboardQueries(): string[] {
  const { panels, annotations } = dashboard();
  const exprs = [...panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)), ...annotations.list.map((a) => a.expr)];
  return exprs.map((expr) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*').replaceAll('$app', 'react-ssr-host'));
}

/** Metric names in PromQL: every selector here has braces, `name{…}`. */
function metricNames(exprs: readonly string[]): Set<string> {
  return new Set(exprs.flatMap((expr) => [...expr.matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map((match) => match[1]!)));
}

describe('deploy/prometheus/alerts.yaml', () => {
  it('passes promtool check rules, with a target-down and a shared-store alert beside the six on failures', () => {
    const check = promtool('check', 'rules', RULES);
    expect(check.output).toContain('SUCCESS: 8 rules found');
    expect(check.status).toBe(0);
    expect(rules().map((rule) => rule.alert)).toEqual([
      'ReactSsrHostHigh5xxRatio',
      'ReactSsrHostSlowP99',
      'ReactSsrHostReadinessFlapping',
      'ReactSsrHostTargetDown',
      'ReactSsrHostLogLinesDropped',
      'ReactSsrHostFailureStorm',
      'ReactSsrHostRevalidationFailing',
      'ReactSsrHostSharedStoreDown',
    ]);
  });

  it('selects no job: a PodMonitor names its job <namespace>/<name>, a scrape config whatever it likes', () => {
    for (const rule of rules()) {
      expect(rule.expr, rule.alert).not.toMatch(/\bjob\b/);
      expect(rule.expr, rule.alert).toContain('app_kubernetes_io_name="react-ssr-host"');
    }
  });

  it('gives every rule a promtool test where it fires, and keeps the cases where it must not page', () => {
    const tests = ruleTests();
    const firing = new Set(tests.flatMap((test) => test.alert_rule_test.filter((t) => t.exp_alerts.length > 0).map((t) => t.alertname)));
    expect(rules().filter((rule) => !firing.has(rule.alert))).toEqual([]);
    const quiet = (name: string) => tests.find((test) => test.name === name)?.alert_rule_test.filter((t) => t.exp_alerts.length === 0);
    expect(quiet('404s only at 2/s, no page')?.map((t) => t.alertname)).toEqual(['ReactSsrHostFailureStorm', 'ReactSsrHostHigh5xxRatio']);
    expect(quiet('5xx with very low traffic, no page (minimum-traffic guard)')?.map((t) => t.alertname)).toEqual([
      'ReactSsrHostHigh5xxRatio',
    ]);
  });

  it('passes its promtool unit tests, and those tests fail on a rule that no longer fires', () => {
    expect(promtool('test', 'rules', RULE_TESTS)).toMatchObject({ status: 0, output: expect.stringContaining('SUCCESS') });
    const dir = mkdtempSync(join(tmpdir(), 'alerts-'));
    writeFileSync(join(dir, 'alerts.yaml'), readFileSync(RULES, 'utf8').replace('> 0.05', '> 0.5'));
    writeFileSync(join(dir, 'alerts.test.yaml'), readFileSync(RULE_TESTS, 'utf8'));
    expect(promtool('test', 'rules', join(dir, 'alerts.test.yaml'))).toMatchObject({
      status: 1,
      output: expect.stringContaining('ReactSsrHostHigh5xxRatio'),
    });
  });

  it('gives every alert a summary, a description and a runbook_url at a heading of docs/operating.md', () => {
    const anchors = anchorsOf(readFileSync(OPERATING, 'utf8'));
    for (const rule of rules()) {
      expect(Object.keys(rule.annotations).sort(), rule.alert).toEqual(['description', 'runbook_url', 'summary']);
      expect(rule.annotations.runbook_url, rule.alert).toBe(`${RUNBOOK_BASE}${rule.alert.toLowerCase()}`);
      expect(anchors, rule.alert).toContain(rule.alert.toLowerCase());
      if (!NO_DIGEST.has(rule.alert)) expect(rule.annotations.description, rule.alert).toContain(DIGEST_TOOL);
    }
  });
});

describe('deploy/grafana/react-ssr-host.json', () => {
  it('is an importable dashboard whose every query parses as PromQL', () => {
    const { uid, panels } = dashboard();
    expect(uid).toBe('react-ssr-host');
    expect(panels.filter((panel) => panel.type !== 'row').every((panel) => (panel.targets ?? []).length > 0)).toBe(true);
    // promtool parses expressions in rules only: each query becomes a recording rule.
    const recorded = dashboardQueries().map((expr, index) => ({ record: `dashboard:query_${index}`, expr }));
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
    writeFileSync(join(dir, 'queries.yaml'), JSON.stringify({ groups: [{ name: 'dashboard', rules: recorded }] }));
    const check = promtool('check', 'rules', join(dir, 'queries.yaml'));
    expect(check.output).toContain(`SUCCESS: ${recorded.length} rules found`);
  });
});

describe('the metrics the dashboard and the rules use', () => {
  let server: RunningServer;
  let served: Set<string>;
  beforeAll(async () => {
    server = await startServer({ METRICS_PORT: '0', REPLICA: 'web-1' });
    const line = await server.logs.waitFor((l) => typeof l.metricsPort === 'number');
    const text = await (await fetch(`http://127.0.0.1:${line.metricsPort as number}/metrics`)).text();
    // Every family is declared by a TYPE line, samples or not; a histogram's samples are its _bucket, _count and _sum.
    served = new Set(
      [...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name!],
      ),
    );
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('are all served by a running server', () => {
    const used = metricNames([...rules().map((rule) => rule.expr), ...dashboardQueries()]);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !served.has(name) && !SCRAPE_SERIES.has(name))).toEqual([]);
  });

  it('would catch a name the server does not serve (the check is real)', () => {
    expect(served.has('app_failures_total')).toBe(true);
    expect(served.has('app_failure_total')).toBe(false);
  });
});
