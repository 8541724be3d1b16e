import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:container`: builds the image and runs it. Separate from the main config, which
// builds the app on the host first (globalSetup) — the image builds its own.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/container/**/*.test.ts'],
    // A cold image build (two npm installs and the app build) takes minutes on two cores.
    hookTimeout: 15 * 60_000,
    testTimeout: 2 * 60_000,
    // The tests share one container and run in order; the last one stops it.
    fileParallelism: false,
  },
});
