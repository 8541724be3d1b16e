import { defineConfig } from 'vite';
import { errorPageStyles } from '../../../vite/error-page-styles.ts';
import { precompressAssets } from '../../../vite/precompress-assets.ts';
import { appServerInputs, reactRouterHost } from '../../../vite/react-router-host.ts';
import config from './react-router.config.ts';

// Built as the host builds an app (../../../vite.config.ts), without the host's own process: the
// tests run the host from the repository's sources and serve this build.
export default defineConfig(() => ({
  // The assets' compressed copies too, as production serves them (tests/assets/compression.test.ts),
  // at quick settings: the best took seconds of every test run that builds.
  plugins: [...reactRouterHost(), errorPageStyles(), precompressAssets({ quick: true })],
  logLevel: 'warn' as const,
  environments: {
    ssr: {
      build: { target: 'node22', sourcemap: true, rollupOptions: { input: appServerInputs(import.meta.dirname, config.appDirectory) } },
    },
  },
}));
