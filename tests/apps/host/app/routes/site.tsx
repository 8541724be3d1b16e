import { Link, Outlet } from 'react-router';
import { HostErrorBoundary, NavigationAnnouncer } from '../../../../../shared/host.ts';

/** A frame around every page, as an app's layout is: a failure below shows inside it. */
export default function Site() {
  return (
    <>
      <header data-testid="site-header">
        <Link to="/">Fixture</Link> <Link to="/board">Board</Link> <Link to="/fixture/linked">Fixture page</Link>
      </header>
      <NavigationAnnouncer />
      <main id="content" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <>
      <header data-testid="site-header">
        <Link to="/">Fixture</Link>
      </header>
      <main id="content" tabIndex={-1}>
        <HostErrorBoundary inline />
      </main>
    </>
  );
}
