import { Suspense, useState } from 'react';
import { useLocation } from 'react-router';

/** Never shown: the page throws before its shell is ready. */
function Note({ path }: { path: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Suspense fallback={null}>
      <button type="button" onClick={() => setOpen((was) => !was)}>
        {open ? 'Hide' : 'Show'}
      </button>
      {open && <p>{`${path} fails on purpose.`}</p>}
    </Suspense>
  );
}

/** Throws while rendering, before the shell: the host answers with its full error page. */
export default function ServerError() {
  const { pathname } = useLocation();
  if (pathname.endsWith('server-error')) throw new Error('Diagnostic server error: render threw before the shell');
  return <Note path={pathname} />;
}
