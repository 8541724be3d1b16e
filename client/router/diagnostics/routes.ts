import { relative } from 'node:path';
import { layout, prefix, route, type RouteConfigEntry } from '@react-router/dev/routes';

// The host's diagnostic routes: pages that fail on purpose, so an operator can prove the error
// pipeline after a deploy (docs/errors.md, "Diagnostic routes"). An app adds them in its
// routes.ts with one line, `...diagnosticRoutes(import.meta.dirname)` (the demo's client/routes.ts
// does); they answer only requests carrying DIAGNOSTICS_TOKEN (server/pages/diagnostics.ts, read by ./layout.tsx's middleware),
// and are a 404 for every other. Written as an app writes route modules, so they exercise what apps use.

/** Route files, relative to this folder; their ids are `diag/<name>`. */
const PAGES = {
  'server-error': 'server-error.tsx',
  'stream-error': 'stream-error.tsx',
  'client-error': 'client-error.tsx',
  'client-error-in-boundary': 'client-error-in-boundary.tsx',
  slow: 'slow.tsx',
  'slow-loader': 'slow-loader.tsx',
  'stuck-loader': 'stuck-loader.tsx',
  'loader-error': 'loader-error.tsx',
  redirect: 'redirect.tsx',
  links: 'links.tsx',
  'client-data': 'client-data.tsx',
  'action-error': 'action-error.tsx',
  upload: 'upload.tsx',
};

/** Their path prefix: /_diag/server-error and so on. */
export const DIAGNOSTICS_PATH = '/_diag';

/** The diagnostic routes for an app whose app directory is `appDirectory` (route files are named relative to it). */
export function diagnosticRoutes(appDirectory: string): RouteConfigEntry[] {
  const file = (name: string) => relative(appDirectory, `${import.meta.dirname}/${name}`);
  return [
    layout(file('layout.tsx'), { id: 'diag' }, [
      ...prefix(
        DIAGNOSTICS_PATH.slice(1),
        Object.entries(PAGES).map(([path, name]) => route(path, file(name), { id: `diag/${path}` })),
      ),
    ]),
  ];
}
