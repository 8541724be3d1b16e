import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Packages' production builds, as `npm start` loads them: outside production Vite resolves with
 * the `development` condition, and vitest passes its conditions to the workers (`--conditions`),
 * where React Router then ran its development build (its dev-only checks and warnings). Vite
 * merges a config's conditions with its defaults, so the default is replaced once resolved.
 * vitest hands the workers no `production` outside production either: they resolve a package's
 * default export, which is React Router's production build.
 */
const productionConditions: Plugin = {
  name: 'production-conditions',
  configResolved({ ssr, environments }) {
    for (const resolve of [ssr.resolve!, environments.ssr!.resolve])
      resolve.conditions = resolve.conditions!.map((name) => (name === 'development|production' ? 'production' : name));
  },
};

export default defineConfig({
  plugins: [productionConditions],
  // Compile JSX as the production build does (react/jsx-runtime, not jsxDEV), to match the
  // production React loaded below.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    // The container and scale-out tests need a container engine: .ci/run runs them.
    exclude: ['tests/container/**', 'tests/scale-out/**', 'node_modules/**'],
    // Builds the app once: production-mode tests, spawned servers and the browser need it.
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores, and workers wait on spawned servers, Chromium and fixed delays: with three the
    // run used 1.4 cores on average, and a fourth fills more of the gaps (2026-11-27, builds
    // cached: 88 s wall with three, 78-81 s with four, 82 s with five).
    maxWorkers: 4,
    // Test files share their worker's module cache instead of importing React, the renderer and
    // the host again each (imports were a third of the run): every test builds its own app,
    // and no test changes a module's state or the environment.
    isolate: false,
    // React picks its build from NODE_ENV when first loaded: test what production runs,
    // where error messages and stacks are never written into the HTML.
    env: { NODE_ENV: 'production' },
  },
});
