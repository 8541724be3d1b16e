// The host's own error pages (404, 5xx, a refused request): complete without JavaScript or
// assets, so nothing they need can be broken.
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server';
import { Document } from './Document.tsx';
import { ErrorPage, type ErrorPageProps } from '../../shared/ErrorPage.tsx';
import { ERROR_PAGE_CSS } from '../../shared/error-page-css.ts';

/** The server renders its own failures and status pages; the client variant is the browser's. */
export type ServerErrorPageProps = Exclude<ErrorPageProps, { side: 'client' }>;

/** The error pages follow the reader's light or dark theme: shared/error-page-css.ts colours both. */
const ERROR_PAGE_COLOR_SCHEME = 'light dark';

export function renderErrorPage(props: ServerErrorPageProps, options: RenderToPipeableStreamOptions & { nonce: string }) {
  const title = props.side === 'http' ? `${props.status}: ${props.message}` : 'Application error';
  return renderToPipeableStream(
    <Document title={title} inlineCss={ERROR_PAGE_CSS} nonce={options.nonce} robots="noindex" colorScheme={ERROR_PAGE_COLOR_SCHEME}>
      <ErrorPage {...props} />
    </Document>,
    options,
  );
}
