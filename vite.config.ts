import { defineConfig } from 'vite';
import { errorPageStyles } from './vite/error-page-styles.ts';
import { precompressAssets } from './vite/precompress-assets.ts';
import { appServerInputs, reactRouterHost } from './vite/react-router-host.ts';
import { BUNDLED_DEPENDENCIES } from './vite/bundled-dependencies.ts';
import reactRouterConfig from './react-router.config.ts';

// One build for the app and the host (`npm run build`, `react-router build`): React Router's Vite
// plugin builds the app from react-router.config.ts (client/ into dist/client, its server build
// into dist/server/react-router.js), and the host's process is built beside it into
// dist/server/index.js (vite/react-router-host.ts says what the host changes of React Router's build).
/** Where `npm start`, the image and the build's prerender step find the build (server/index.ts, Dockerfile). */
const BUILD_DIRECTORY = 'dist';
if (reactRouterConfig.buildDirectory !== BUILD_DIRECTORY) {
  // Said here, in one line: the build would go elsewhere and its next step fail on a missing file with a stack.
  throw new Error(
    `react-router.config.ts: set buildDirectory: '${BUILD_DIRECTORY}' (it is ${JSON.stringify(reactRouterConfig.buildDirectory)}): the host builds and serves the app from dist/ (docs/upgrading.md)`,
  );
}

export default defineConfig(({ command }) => ({
  plugins: [...reactRouterHost(), errorPageStyles(), precompressAssets()],
  environments: {
    ssr: {
      // The build's own copies of these (vite/bundled-dependencies.ts); development loads node_modules'.
      resolve: command === 'build' ? { noExternal: BUNDLED_DEPENDENCIES } : {},
      build: {
        target: 'node22', // engines' floor (package.json)
        // Shipped beside the server files (never served): failures are logged with source files
        // and lines (server/failures/source-maps.ts).
        sourcemap: true,
        rollupOptions: {
          // The host's process and Sentry's `--import` (docs/sentry.md), the build's last step
          // (server/prerender.ts), and the app's: React Router's server build under a name of its
          // own, and the app's migrations and failure hook (vite/react-router-host.ts).
          input: {
            index: 'server/index.ts',
            instrument: 'server/instrument.ts',
            prerender: 'server/prerender.ts',
            ...appServerInputs(import.meta.dirname, reactRouterConfig.appDirectory),
          },
        },
      },
    },
  },
}));
