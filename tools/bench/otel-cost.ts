// `npm run bench:otel`: what OTLP export costs the bench app's streamed page (/), served by the
// host with export off, at always_on, and at 10% sampling with and without log records, each to
// a local receiver that takes everything (docs/performance.md, "OTLP export"). Three rounds,
// alternating the order; each figure is a median of autocannon's average req/s.
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { startAppServer } from './app-server.ts';
import { BENCH_APP_BUILD, ensureBenchApp } from './bench-app.ts';

const ROUNDS = 3;
const CONNECTIONS = 32;
const WARM_UP_S = 1;
const RUN_S = 4;
/** The server on one core, the load on the other (as `npm run bench` pins them). */
const SERVER_CPU = '1';

ensureBenchApp();
let received = 0;
const receiver = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (received += chunk.length));
  req.on('end', () => res.end('{}'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
const tenth = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
const variants: [string, Record<string, string>][] = [
  ['export off', {}],
  ['always_on', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on' }],
  ['10% sampled', tenth],
  ['10% sampled, no log records', { ...tenth, OTEL_LOGS_EXPORTER: 'none' }],
];

const runs = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, env] of round % 2 === 0 ? variants : [...variants].reverse()) {
    const server = await startAppServer({ logLevel: 'info', appBuild: BENCH_APP_BUILD, cpus: SERVER_CPU, stdoutFile: '/dev/null', env });
    await autocannon({ url: `${server.url}/`, connections: CONNECTIONS, duration: WARM_UP_S });
    const { requests } = await autocannon({ url: `${server.url}/`, connections: CONNECTIONS, duration: RUN_S });
    runs.set(name, [...(runs.get(name) ?? []), requests.average]);
    await server.stop();
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const off = median(runs.get('export off')!);
for (const [name, values] of runs) {
  const list = values.map((value) => value.toFixed(0)).join(', ');
  console.log(
    `${name.padEnd(30)} ${median(values).toFixed(0).padStart(5)} req/s  ${(median(values) / off).toFixed(2)}× off  (rounds: ${list})`,
  );
}
console.log(`OTLP received: ${(received / 1_048_576).toFixed(1)} MiB`);
receiver.close();
