// The host's diagnostic routes: pages that fail on purpose, so an operator can prove the error
// pipeline after a deploy (docs/errors.md, "Diagnostic routes"). The host adds them to every
// route table (../server/host-routes.ts); they answer only requests carrying DIAGNOSTICS_TOKEN
// (server/pages/diagnostics.ts). Written as an app writes routes, so they exercise what apps use.
import { defineRoutes } from '../both/route-entry.ts';

export const diagnosticRoutes = defineRoutes([
  {
    id: 'diag',
    path: '_diag',
    diagnostics: true,
    page: () => import('./DiagnosticsLayout.tsx'),
    meta: { title: 'Diagnostics', robots: 'noindex' },
    children: [
      { id: 'diag-server-error', path: 'server-error', page: () => import('./ServerError.tsx') },
      { id: 'diag-stream-error', path: 'stream-error', page: () => import('./StreamError.tsx') },
      { id: 'diag-client-error', path: 'client-error', page: () => import('./ClientError.tsx') },
      {
        id: 'diag-client-error-in-boundary',
        path: 'client-error-in-boundary',
        page: () => import('./ClientError.tsx'),
        boundary: true,
      },
      {
        id: 'diag-slow',
        path: 'slow',
        page: () => import('./Slow.tsx'),
        server: () => import('./slow.server.ts'),
      },
      {
        id: 'diag-slow-loader',
        path: 'slow-loader',
        page: () => import('./LoaderMessage.tsx'),
        server: () => import('./slow-loader.server.ts'),
      },
      {
        id: 'diag-stuck-loader',
        path: 'stuck-loader',
        page: () => import('./LoaderMessage.tsx'),
        server: () => import('./stuck-loader.server.ts'),
      },
      {
        id: 'diag-loader-error',
        path: 'loader-error',
        page: () => import('./LoaderMessage.tsx'),
        server: () => import('./loader-error.server.ts'),
        boundary: true,
      },
      {
        id: 'diag-redirect',
        path: 'redirect',
        page: () => import('./LoaderMessage.tsx'),
        server: () => import('./redirect.server.ts'),
      },
      { id: 'diag-links', path: 'links', page: () => import('./Links.tsx') },
      {
        id: 'diag-client-data',
        path: 'client-data',
        page: () => import('./ClientData.tsx'),
        server: () => import('./client-data.server.ts'),
      },
      {
        id: 'diag-action-error',
        path: 'action-error',
        page: () => import('./ActionError.tsx'),
        server: () => import('./action-error.server.ts'),
        boundary: true,
      },
      {
        // A file over its route's limit, kept as a field error: with which limit answers (the host's or a proxy's).
        id: 'diag-upload',
        path: 'upload',
        page: () => import('./Upload.tsx'),
        server: () => import('./upload.server.ts'),
      },
    ],
  },
]);
