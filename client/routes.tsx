// The route table: the one place a page is declared. Add a page with one file and one entry
// here (README, "Add a page"). Pages and layouts load lazily, one chunk each; a `server`
// module runs only on the server (its code never reaches the browser: vite.config.ts).
import { defineRoutes } from './host.ts';
import { syntheticRoutes } from './synthetic-routes.ts';

export const routes = defineRoutes([
  {
    id: 'site',
    page: () => import('./layouts/SiteLayout.tsx'),
    server: () => import('./layouts/site.server.ts'),
    boundary: true,
    children: [
      {
        id: 'home',
        index: true,
        page: () => import('./pages/Home.tsx'),
        server: () => import('./pages/home.server.ts'),
        meta: { title: 'react-ssr-host', description: 'A streamed, server-rendered React 19 page that hydrates in your browser.' },
      },
      {
        id: 'guide',
        path: 'guide/:topic?',
        page: () => import('./pages/Guide.tsx'),
        server: () => import('./pages/guide.server.ts'),
        boundary: true,
      },
      {
        id: 'about',
        path: 'about',
        page: () => import('./pages/About.tsx'),
        server: () => import('./pages/about.server.ts'),
        meta: { title: 'About' },
      },
      {
        id: 'guestbook',
        path: 'guestbook',
        page: () => import('./pages/guestbook/Guestbook.tsx'),
        server: () => import('./pages/guestbook/guestbook.server.ts'),
        meta: { title: 'Guestbook · react-ssr-host', description: 'Sign the guestbook: a form that works with and without JavaScript.' },
        boundary: true,
      },
      {
        id: 'guestbook-entry',
        path: 'guestbook/entries/:id',
        page: () => import('./pages/guestbook/Entry.tsx'),
        server: () => import('./pages/guestbook/entry.server.ts'),
      },
      {
        id: 'guestbook-sign-in',
        path: 'guestbook/sign-in',
        page: () => import('./pages/guestbook/SignIn.tsx'),
        server: () => import('./pages/guestbook/sign-in.server.ts'),
      },
      {
        id: 'guestbook-mine',
        path: 'guestbook/mine',
        page: () => import('./pages/guestbook/Mine.tsx'),
        server: () => import('./pages/guestbook/mine.server.ts'),
      },
      // None, unless built with SYNTHETIC_ROUTES=<n> for a benchmark (vite.config.ts).
      ...syntheticRoutes,
    ],
  },
  // Resource routes: no page, their loader's or action's Response is the answer.
  { id: 'api-guestbook', path: 'api/guestbook', server: () => import('./api/guestbook.server.ts') },
  { id: 'guestbook-sign-out', path: 'guestbook/sign-out', server: () => import('./pages/guestbook/sign-out.server.ts') },
  {
    // Failures on purpose, for operators and tests: only with DIAGNOSTICS_TOKEN (server/pages/diagnostics.ts).
    id: 'diag',
    path: '_diag',
    diagnostics: true,
    page: () => import('./pages/diagnostics/DiagnosticsLayout.tsx'),
    meta: { title: 'Diagnostics', robots: 'noindex' },
    children: [
      { id: 'diag-server-error', path: 'server-error', page: () => import('./pages/diagnostics/ServerError.tsx') },
      { id: 'diag-stream-error', path: 'stream-error', page: () => import('./pages/diagnostics/StreamError.tsx') },
      { id: 'diag-client-error', path: 'client-error', page: () => import('./pages/diagnostics/ClientError.tsx') },
      {
        id: 'diag-client-error-in-boundary',
        path: 'client-error-in-boundary',
        page: () => import('./pages/diagnostics/ClientError.tsx'),
        boundary: true,
      },
      {
        id: 'diag-slow',
        path: 'slow',
        page: () => import('./pages/diagnostics/Slow.tsx'),
        server: () => import('./pages/diagnostics/slow.server.ts'),
      },
      {
        id: 'diag-slow-loader',
        path: 'slow-loader',
        page: () => import('./pages/diagnostics/LoaderMessage.tsx'),
        server: () => import('./pages/diagnostics/slow-loader.server.ts'),
      },
      {
        id: 'diag-stuck-loader',
        path: 'stuck-loader',
        page: () => import('./pages/diagnostics/LoaderMessage.tsx'),
        server: () => import('./pages/diagnostics/stuck-loader.server.ts'),
      },
      {
        id: 'diag-loader-error',
        path: 'loader-error',
        page: () => import('./pages/diagnostics/LoaderMessage.tsx'),
        server: () => import('./pages/diagnostics/loader-error.server.ts'),
        boundary: true,
      },
      {
        id: 'diag-redirect',
        path: 'redirect',
        page: () => import('./pages/diagnostics/LoaderMessage.tsx'),
        server: () => import('./pages/diagnostics/redirect.server.ts'),
      },
      { id: 'diag-links', path: 'links', page: () => import('./pages/diagnostics/Links.tsx') },
      {
        id: 'diag-client-data',
        path: 'client-data',
        page: () => import('./pages/diagnostics/ClientData.tsx'),
        server: () => import('./pages/diagnostics/client-data.server.ts'),
      },
      {
        id: 'diag-action-error',
        path: 'action-error',
        page: () => import('./pages/diagnostics/ActionError.tsx'),
        server: () => import('./pages/diagnostics/action-error.server.ts'),
        boundary: true,
      },
      {
        // A file over its route's limit, kept as a field error: with which limit answers (the host's or a proxy's).
        id: 'diag-upload',
        path: 'upload',
        page: () => import('./pages/diagnostics/Upload.tsx'),
        server: () => import('./pages/diagnostics/upload.server.ts'),
      },
    ],
  },
]);
