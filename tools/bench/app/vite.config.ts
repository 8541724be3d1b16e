import { defineConfig } from 'vite';
import { errorPageStyles } from '../../../vite/error-page-styles.ts';
import { appServerInputs, reactRouterHost } from '../../../vite/react-router-host.ts';
import config from './react-router.config.ts';

// Built as the host builds an app (../../../vite.config.ts, as tests/apps/host does): the host's
// entries where the app has none, so the build the floor serves is the very one the host serves.
export default defineConfig(() => ({
  plugins: [...reactRouterHost(), errorPageStyles()],
  logLevel: 'warn' as const,
  environments: {
    ssr: { build: { target: 'node22', rollupOptions: { input: appServerInputs(import.meta.dirname, config.appDirectory) } } },
  },
}));
