import { Document } from '../shared/Document.tsx';
import type { RouteId, RuntimeConfig } from '../shared/runtime.ts';
import { RootErrorBoundary } from './ErrorBoundary.tsx';
import { ClientErrorPage, ServerErrorPage, SlowPage, StreamErrorPage } from './pages/Diagnostics.tsx';
import { Home } from './pages/Home.tsx';
import { ResourceProvider } from './resource.tsx';

const TITLES: Record<RouteId, string> = {
  home: 'react-ssr-host',
  'diag-server-error': 'Diagnostic: server error',
  'diag-stream-error': 'Diagnostic: stream error',
  'diag-client-error': 'Diagnostic: client error',
  'diag-slow': 'Diagnostic: slow stream',
};

function Page({ page }: { page: RuntimeConfig['page'] }) {
  switch (page.route) {
    case 'home':
      return <Home />;
    case 'diag-server-error':
      return <ServerErrorPage />;
    case 'diag-stream-error':
      return <StreamErrorPage />;
    case 'diag-client-error':
      return <ClientErrorPage />;
    case 'diag-slow':
      return <SlowPage ms={page.params.ms ?? 0} />;
  }
}

/** The whole document; the server renders it and the browser hydrates the same tree. */
export function App({ config }: { config: RuntimeConfig }) {
  return (
    <Document title={TITLES[config.page.route]} assets={config.assets} trace={config.trace}>
      <RootErrorBoundary>
        <ResourceProvider>
          <Page page={config.page} />
        </ResourceProvider>
      </RootErrorBoundary>
    </Document>
  );
}
