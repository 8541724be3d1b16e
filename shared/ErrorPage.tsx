import type { ReactNode } from 'react';
import { DIGEST_LABEL, clientErrorMessage, serverErrorMessage } from './messages.ts';

export type ErrorPageProps =
  | { side: 'server'; hostname: string; digest: string; detail?: string; inline?: boolean }
  | { side: 'client'; hostname: string; digest: string; inline?: boolean }
  | { side: 'http'; status: number; message: string; inline?: boolean };

/**
 * What a user sees when something fails. The reload is a plain link, so it works without
 * JavaScript; the digest is selectable in one click so it can be pasted into a support request.
 */
function Frame({ inline, children }: { inline?: boolean; children: ReactNode }) {
  // A route boundary shows the same content inside the page's layouts, as a section. ARIA in
  // HTML allows no role on <main>: the whole page's alert is the block inside it.
  if (inline) {
    return (
      <section className="error error--inline" role="alert">
        {children}
      </section>
    );
  }
  return (
    <main className="error">
      <div role="alert">{children}</div>
    </main>
  );
}

export function ErrorPage(props: ErrorPageProps) {
  if (props.side === 'http') {
    return (
      <Frame inline={props.inline}>
        <h1>{props.status}</h1>
        <h2>{props.message}</h2>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </Frame>
    );
  }
  const message = props.side === 'server' ? serverErrorMessage(props.hostname) : clientErrorMessage(props.hostname);
  return (
    <Frame inline={props.inline}>
      <h2>{message}</h2>
      <p>
        {`${DIGEST_LABEL}: `}
        <code data-digest="">{props.digest}</code>
      </p>
      {/* An empty href is the current URL, query included: a reload that needs no JavaScript. */}
      <a className="button" href="">
        Reload
      </a>
      {props.side === 'server' && props.detail !== undefined && <pre>{props.detail}</pre>}
    </Frame>
  );
}
