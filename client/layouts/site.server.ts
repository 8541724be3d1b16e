import type { LoaderArgs } from '../host.ts';

/** The layout's data: loaded once per request, shared by every page under it. */
export function loader({ request }: LoaderArgs) {
  return {
    nav: [
      { to: '/', label: 'Home' },
      { to: '/guide', label: 'Guide' },
      { to: '/guestbook', label: 'Guestbook' },
    ],
    // Shows that a layout loader sees the request; the value is only echoed back, escaped by React.
    language: (request.headers.get('accept-language') ?? 'en').split(',')[0]!.slice(0, 16),
  };
}

export type SiteData = ReturnType<typeof loader>;
