import type { LoaderArgs } from '../host.ts';
import { NAV } from './nav.ts';

/** The layout's data: loaded once per request, shared by every page under it. */
export function loader({ request }: LoaderArgs) {
  return {
    nav: NAV,
    // Shows that a layout loader sees the request; the value is only echoed back, escaped by React.
    language: (request.headers.get('accept-language') ?? 'en').split(',')[0]!.slice(0, 16),
  };
}

export type SiteData = ReturnType<typeof loader>;
