import { Suspense, useEffect, useState } from 'react';
import { delay, isServer, settled, useResource } from '../resource.tsx';

// Pages that fail on purpose, so an operator can prove the error pipeline after a deploy.
// The server mounts them only when DIAGNOSTICS_TOKEN is configured and sent.

/** Long enough that the shell is certainly flushed before the section fails. */
const STREAM_ERROR_DELAY_MS = 50;

export function ServerErrorPage(): never {
  throw new Error('Diagnostic server error: render threw before the shell');
}

function FailsOnServer() {
  const outcome = useResource('stream-error', () =>
    isServer
      ? delay(STREAM_ERROR_DELAY_MS).then((): string => {
          throw new Error('Diagnostic stream error: Suspense content threw after the shell');
        })
      : settled('Recovered: the browser rendered this section after the server failed.'),
  );
  return <p data-testid="stream-error-content">{outcome}</p>;
}

export function StreamErrorPage() {
  return (
    <main className="page">
      <h1>Diagnostic: error after the shell</h1>
      <Suspense fallback={<p>Loading a section that fails on the server…</p>}>
        <FailsOnServer />
      </Suspense>
    </main>
  );
}

export function ClientErrorPage() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (hydrated) throw new Error('Diagnostic client error: thrown in the browser after hydration');
  return (
    <main className="page">
      <h1>Diagnostic: client error</h1>
      <p>This page throws as soon as it has hydrated.</p>
    </main>
  );
}

function SlowContent({ ms }: { ms: number }) {
  const done = useResource('slow', () => (isServer ? delay(ms).then(() => ms) : settled(ms)));
  return <p data-testid="slow-content">{`Finished after ${done} ms.`}</p>;
}

export function SlowPage({ ms }: { ms: number }) {
  return (
    <main className="page">
      <h1>Diagnostic: slow stream</h1>
      <Suspense fallback={<p>{`Waiting ${ms} ms…`}</p>}>
        <SlowContent ms={ms} />
      </Suspense>
    </main>
  );
}
