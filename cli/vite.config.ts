import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vite';

/** Where the operator's tool is built to: the Dockerfile links it onto PATH as react-ssr-host-digest. */
const OUT_DIR = 'dist/cli';
const ENTRY_FILE = 'digest.js';

// The operator's digest tool is built on its own, not as part of the server: it shares no
// code with the host beyond shared/, and the image runs it with Node and nothing else.
export default defineConfig({
  build: {
    ssr: 'cli/digest.ts',
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: 'node22', // engines' floor (package.json)
    rolldownOptions: { output: { entryFileNames: ENTRY_FILE } },
  },
  plugins: [
    {
      // The tool runs by its shebang: the file must be executable wherever it is copied.
      name: 'react-ssr-host:executable-bin',
      writeBundle() {
        chmodSync(join(OUT_DIR, ENTRY_FILE), 0o755);
      },
    },
  ],
});
