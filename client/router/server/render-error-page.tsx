// The host's own error pages (404, 5xx, a refused request): complete without JavaScript or
// assets, so nothing they need can be broken.
import { renderToPipeableStream } from 'react-dom/server';
import { Document } from '../../../shared/Document.tsx';
import { ErrorPage } from '../../../shared/ErrorPage.tsx';
import ERROR_PAGE_CSS from '../../../shared/error-page.css?raw';
import type { ServerErrorPageProps, StreamOptions } from '../../../shared/page-seam.ts';

/** The error pages follow the reader's light or dark theme: shared/error-page.css colours both. */
const ERROR_PAGE_COLOR_SCHEME = 'light dark';

/** The CSP nonces React puts on the styles and the scripts it writes: one for both, or one each. */
export const styleNonce = (nonce: StreamOptions['nonce']) => (typeof nonce === 'string' ? nonce : nonce?.style);
export const scriptNonce = (nonce: StreamOptions['nonce']) => (typeof nonce === 'string' ? nonce : nonce?.script);

export function renderErrorPage(props: ServerErrorPageProps, options: StreamOptions) {
  const title = props.side === 'http' ? `${props.status}: ${props.message}` : 'Application error';
  return renderToPipeableStream(
    <Document
      title={title}
      inlineCss={ERROR_PAGE_CSS}
      nonce={styleNonce(options.nonce)}
      robots="noindex"
      colorScheme={ERROR_PAGE_COLOR_SCHEME}
    >
      <ErrorPage {...props} />
    </Document>,
    options,
  );
}
