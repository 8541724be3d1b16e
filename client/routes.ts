// The app's routes (React Router framework mode: https://reactrouter.com/start/framework/routing).
// Each file is a route module: its component, and what runs on the server (loader, action,
// middleware), which React Router's build keeps out of the browser's bundle.
import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';
import { diagnosticRoutes } from './router/diagnostics/routes.ts';

export default [
  layout('layouts/site.tsx', [
    index('pages/home.tsx'),
    route('guide/:topic?', 'pages/guide.tsx'),
    route('about', 'pages/about.tsx'),
    route('guestbook', 'pages/guestbook/guestbook.tsx'),
    route('guestbook/entries/:id', 'pages/guestbook/entry.tsx'),
    route('guestbook/sign-in', 'pages/guestbook/sign-in.tsx'),
    route('guestbook/mine', 'pages/guestbook/mine.tsx'),
  ]),
  // Resource routes: no page, their loader's or action's Response is the answer.
  route('api/guestbook', 'api/guestbook.ts'),
  route('guestbook/sign-out', 'pages/guestbook/sign-out.ts'),
  route('guestbook/entries/:id/attachment', 'pages/guestbook/attachment.ts'),
  // The host's pages that fail on purpose, with DIAGNOSTICS_TOKEN (docs/errors.md, "Diagnostic routes").
  ...diagnosticRoutes(import.meta.dirname),
] satisfies RouteConfig;
