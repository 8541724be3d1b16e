import { defineConfig } from 'vite';
import { errorPageStyles } from '../../../vite/error-page-styles.ts';
import { appServerInputs, reactRouterHost } from '../../../vite/react-router-host.ts';
import config from './react-router.config.ts';

// Built as the host builds an app (../../../vite.config.ts), without the host's own process: the
// tests run the host from the repository's sources and serve this build.
export default defineConfig(() => ({
  plugins: [...reactRouterHost(), errorPageStyles()],
  logLevel: 'warn' as const,
  environments: {
    ssr: {
      build: { target: 'node22', sourcemap: true, rollupOptions: { input: appServerInputs(import.meta.dirname, config.appDirectory) } },
    },
  },
}));
