import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// One config, two builds: the browser bundle (hashed files + manifest) and the server bundle
// (the process entry, with the React renderer inside; dependencies stay external so Sentry's
// `--import` instrumentation sees the real packages).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        target: 'node20',
        rolldownOptions: {
          input: { index: 'server/index.ts', instrument: 'server/instrument.ts', digest: 'scripts/digest/cli.ts' },
        },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        rolldownOptions: {
          input: 'client/entry-client.tsx',
          // React changes less often than the app: its own chunk stays cached across releases.
          output: { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } },
        },
      },
}));
