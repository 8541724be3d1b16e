// The route table: the one place a page is declared. Add a page with one file and one entry
// here (README, "Add a page"). Pages and layouts load lazily, one chunk each; a `server`
// module runs only on the server (its code never reaches the browser: vite.config.ts).
import { defineRoutes } from './host.ts';

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
    ],
  },
  // Resource routes: no page, their loader's or action's Response is the answer.
  { id: 'api-guestbook', path: 'api/guestbook', server: () => import('./api/guestbook.server.ts') },
  { id: 'guestbook-sign-out', path: 'guestbook/sign-out', server: () => import('./pages/guestbook/sign-out.server.ts') },
]);
