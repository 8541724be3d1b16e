import { defineConfig } from 'vitest/config';
import { routeModuleSources } from './vite.config.ts';

export default defineConfig({
  // Compile JSX as the production build does (react/jsx-runtime, not jsxDEV), to match the
  // production React loaded below.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  // As in the build: route pages carry their source path, for the preloads of matched routes.
  plugins: [routeModuleSources()],
  test: {
    // The error pages inline their stylesheet (`?raw`): the tests must see its real text.
    css: { include: [/error-page\.css/] },
    include: ['tests/**/*.test.{ts,tsx}'],
    // The container and scale-out tests need a container engine: .ci/run runs them.
    exclude: ['tests/container/**', 'tests/scale-out/**', 'node_modules/**'],
    // Builds the app once: production-mode tests, spawned servers and the browser need it.
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: spawned servers and Chromium are heavy; keep the pool small and steady. Three
    // workers measured 88 s against 100 s, but the extra contention made a timing-bound test
    // flaky in a clean-clone CI run: two it stays.
    maxWorkers: 2,
    // Test files share their worker's module cache instead of importing React, the renderer and
    // the host again each (imports were a third of the run): every test builds its own app,
    // and no test changes a module's state or the environment.
    isolate: false,
    // React picks its build from NODE_ENV when first loaded: test what production runs,
    // where error messages and stacks are never written into the HTML.
    env: { NODE_ENV: 'production' },
  },
});
