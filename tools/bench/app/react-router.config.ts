import type { Config } from '@react-router/dev/config';

// The bench's own app (docs/performance.md, "Benchmark"): a few pages, each the case one row of
// `npm run bench` measures. Built once per bench when its sources change (tools/bench/bench-app.ts),
// then served from the same build by the host (APP_BUILD) and by @react-router/express alone
// (tools/bench/floor-react-router.ts).
export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
} satisfies Config;
