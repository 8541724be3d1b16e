import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:scale-out`: builds two images, runs them behind HAProxy and rolls one to the
// other. Like the container test it needs a container engine, so it is not part of `npm test`.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/scale-out/**/*.test.ts'],
    // Two image builds on two cores (the second reuses the first's dependency layers).
    hookTimeout: 20 * 60_000,
    testTimeout: 5 * 60_000,
    // One cluster, used by the tests in order; the last one rolls it.
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
