import { Suspense, use, useState } from 'react';

/** Long enough that the shell is certainly flushed before the section fails. */
const STREAM_ERROR_DELAY_MS = 50;

function failLater(): Promise<string> {
  return new Promise((_resolve, reject) =>
    setTimeout(() => reject(new Error('Diagnostic stream error: Suspense content threw after the shell')), STREAM_ERROR_DELAY_MS),
  );
}

/** Fails on the server after the shell; the browser renders the section again, and it succeeds. */
function FailsOnServer({ outcome }: { outcome: Promise<string> | null }) {
  const text = outcome === null ? 'Recovered: the browser rendered this section after the server failed.' : use(outcome);
  return <p data-testid="stream-error-content">{text}</p>;
}

export default function StreamError() {
  // Created once, outside the boundary: a suspended section is rendered again when it resumes.
  const [outcome] = useState(() => (typeof window === 'undefined' ? failLater() : null));
  return (
    <>
      <h1>Diagnostic: error after the shell</h1>
      <Suspense fallback={<p>Loading a section that fails on the server…</p>}>
        <FailsOnServer outcome={outcome} />
      </Suspense>
    </>
  );
}
