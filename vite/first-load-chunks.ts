import type { Plugin } from 'vite';

// The browser's first load in two files besides the page's own routes: React, React DOM and React
// Router in one, the host's browser runtime (client/router/, shared/) in another. Left to the
// bundler, they came in eight, each compressed alone: 3.7 KB more at gzip level 6 on the demo's
// first load of / (docs/performance.md, "First-load JavaScript"). Sentry's chunk stays apart (it
// loads only with a DSN), and so do the diagnostic routes (their own pages only) and the entry
// itself: it awaits Sentry's chunk, which imports the host's error hooks, so an entry inside the
// host's chunk would wait on a chunk waiting on it, and the page never hydrated.

const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router|turbo-stream|cookie|set-cookie-parser)[\\/]/;
const HOST = /[\\/](client[\\/]router|shared)[\\/]/;
const APART = /[\\/]client[\\/]router[\\/](sentry\.ts|entry\.client\.tsx|diagnostics[\\/])/;

export function firstLoadChunks(): Plugin {
  return {
    name: 'react-ssr-host:first-load-chunks',
    config: () => ({
      environments: {
        client: {
          build: {
            rollupOptions: {
              output: {
                advancedChunks: {
                  groups: [
                    { name: 'framework', test: FRAMEWORK },
                    { name: 'host', test: (id: string) => HOST.test(id) && !APART.test(id) },
                  ],
                },
              },
            },
          },
        },
      },
    }),
  };
}
