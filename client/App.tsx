import type { ReactNode } from 'react';
import { Document } from '../shared/Document.tsx';
import type { RuntimeConfig } from '../shared/runtime.ts';
import { HostnameContext } from './router/both/RouteErrorBoundary.tsx';

interface AppProps {
  config: RuntimeConfig;
  router: ReactNode;
  after?: ReactNode;
  /** Server only: the stylesheets' text and the nonce their <style> carries. */
  styleText?: Readonly<Record<string, string>>;
  nonce?: string;
}

/**
 * The whole document around the router; the server renders it and the browser hydrates the
 * same tree. `router` is StaticRouterProvider on the server and RouterProvider in the browser;
 * `after` holds what streams in once the page is written (client/router/both/deferred.ts).
 */
export function App({ config, router, after, styleText, nonce }: AppProps) {
  return (
    <Document assets={config.assets} trace={config.trace} styleText={styleText} nonce={nonce}>
      <HostnameContext value={config.hostname}>{router}</HostnameContext>
      {after}
    </Document>
  );
}
