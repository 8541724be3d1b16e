import type { Config } from '@react-router/dev/config';

// The tests' second app (tests/README.md): a framework-mode app written as React Router's own docs
// and tutorial write one, with nothing of the host in it but its migrations, its session keys and
// the nonce its own entry.server reads. It proves such an app runs on the host unchanged
// (tests/e2e/framework-app.test.ts).
export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  prerender: ['/about'],
} satisfies Config;
