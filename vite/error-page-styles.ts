import type { Plugin } from 'vite';
import { ERROR_PAGE_CSS } from '../shared/error-page-css.ts';

// The error pages' stylesheet as a module the browser's entry imports (client/router/entry.client.tsx):
// Vite builds it into the entry's CSS, which React Router links from every page. Its text is
// shared/error-page-css.ts's, which the server writes into its own error pages.

export const ERROR_PAGE_STYLES = 'virtual:react-ssr-host/error-page.css';
const RESOLVED = `\0${ERROR_PAGE_STYLES}`;

export function errorPageStyles(): Plugin {
  return {
    name: 'react-ssr-host:error-page-styles',
    resolveId: (id) => (id === ERROR_PAGE_STYLES ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? ERROR_PAGE_CSS : undefined),
  };
}
