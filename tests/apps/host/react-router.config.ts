import type { Config } from '@react-router/dev/config';

// The host's own fixture app (tests/README.md): what the host's tests render, independent of the
// demo in client/. Built once per `npm test` when its sources change (tests/support/build-once.ts).
export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  prerender: ['/prerendered/fine'],
} satisfies Config;
