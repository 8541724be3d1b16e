import { useEffect, useState } from 'react';

export default function ClientError() {
  // Renders once (on the server, while hydrating, and after a client navigation alike), then
  // throws from a render in the browser: a failure React reports to the root's hooks and the
  // nearest boundary, as a bug in a page would.
  const [mounted, setMounted] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the second render is the point: it must come after the first one was shown
  useEffect(() => setMounted(true), []);
  if (mounted) throw new Error('Diagnostic client error: thrown in the browser after hydration');
  return (
    <>
      <h1>Diagnostic: client error</h1>
      <p>This page throws as soon as it has rendered in the browser.</p>
    </>
  );
}
