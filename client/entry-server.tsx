// The seam between HTTP and React: builds the element and hands back React's stream.
// It knows nothing of requests or responses; server/render.ts does.
import { StrictMode } from 'react';
import { renderToPipeableStream, type PipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server';
import { Document } from '../shared/Document.tsx';
import { ERROR_PAGE_CSS, ErrorPage, type ErrorPageProps } from '../shared/ErrorPage.tsx';
import { RUNTIME_GLOBAL, serializeForScript, type RuntimeConfig } from '../shared/runtime.ts';
import { App } from './App.tsx';

export type StreamOptions = Omit<RenderToPipeableStreamOptions, 'bootstrapModules' | 'bootstrapScriptContent'>;

export function renderPage(config: RuntimeConfig, options: StreamOptions): PipeableStream {
  return renderToPipeableStream(
    <StrictMode>
      <App config={config} />
    </StrictMode>,
    {
      ...options,
      bootstrapScriptContent: `window.${RUNTIME_GLOBAL}=${serializeForScript(config)}`,
      bootstrapModules: [...config.assets.scripts],
    },
  );
}

/** The server renders its own failures and status pages; the client variant is the browser's. */
export type ServerErrorPageProps = Exclude<ErrorPageProps, { side: 'client' }>;

function styleNonce(nonce: StreamOptions['nonce']): string | undefined {
  return typeof nonce === 'string' ? nonce : nonce?.style;
}

/** Error pages are complete without JavaScript or assets: nothing they need can be broken. */
export function renderErrorPage(props: ServerErrorPageProps, options: StreamOptions): PipeableStream {
  const title = props.side === 'http' ? `${props.status}: ${props.message}` : 'Application error';
  return renderToPipeableStream(
    <Document title={title} inlineCss={ERROR_PAGE_CSS} nonce={styleNonce(options.nonce)}>
      <ErrorPage {...props} />
    </Document>,
    options,
  );
}
