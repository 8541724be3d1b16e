import type { Config } from '@react-router/dev/config';

// The app's React Router configuration (framework mode: https://reactrouter.com/api/framework-conventions/react-router.config.ts).
// The app lives in client/; the host builds it with `npm run build` (vite.config.ts) into dist/.
export default {
  appDirectory: 'client',
  buildDirectory: 'dist',
  ssr: true,
  // Rendered at build by the host's own step (server/prerender.ts), served as files (docs/caching.md).
  prerender: ['/guide/streaming', '/guide/failures', '/guide/navigation'],
} satisfies Config;
