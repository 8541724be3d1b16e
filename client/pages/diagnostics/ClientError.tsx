import { useSyncExternalStore } from 'react';

/** Nothing to subscribe to: the value only differs between the server (and hydration) and after. */
const noSubscription = () => () => {};

export default function ClientError() {
  // False on the server and while hydrating, true once hydrated (React docs, useSyncExternalStore's getServerSnapshot).
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (hydrated) throw new Error('Diagnostic client error: thrown in the browser after hydration');
  return (
    <>
      <h1>Diagnostic: client error</h1>
      <p>This page throws as soon as it has hydrated.</p>
    </>
  );
}
