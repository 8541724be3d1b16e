import { useEffect, useState } from 'react';

export default function ClientError() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (hydrated) throw new Error('Diagnostic client error: thrown in the browser after hydration');
  return (
    <>
      <h1>Diagnostic: client error</h1>
      <p>This page throws as soon as it has hydrated.</p>
    </>
  );
}
