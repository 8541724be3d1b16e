import { DIGEST_LABEL, clientErrorMessage, serverErrorMessage } from './messages.ts';

/** Next.js's error page layout (ERRORS.md): a centred column, system-ui, 14px/28px. */
export const ERROR_PAGE_CSS = `
body{margin:0;font-family:system-ui,"Segoe UI",Roboto,Helvetica,Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji";color:#000;background:#fff}
.error{height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;padding:0 16px;box-sizing:border-box}
.error h1{font-size:24px;font-weight:500;margin:0 0 8px}
.error h2{font-size:14px;font-weight:400;line-height:28px;margin:0;max-width:40em}
.error p{font-size:14px;line-height:28px;margin:0}
.error code{user-select:all;font-family:ui-monospace,Menlo,Consolas,monospace;padding:0 4px;border-radius:4px;background:rgba(0,0,0,.06)}
.error .button{display:inline-block;text-decoration:none;margin-top:16px;font:inherit;padding:6px 16px;border-radius:6px;border:1px solid currentColor;background:transparent;color:inherit;cursor:pointer}
.error pre{max-width:90vw;overflow:auto;text-align:left;font-size:12px;line-height:18px;margin-top:16px}
@media (prefers-color-scheme:dark){body{color:#ededed;background:#0a0a0a}.error code{background:rgba(255,255,255,.1)}}
`;

export type ErrorPageProps =
  | { side: 'server'; hostname: string; digest: string; detail?: string }
  | { side: 'client'; hostname: string; digest: string }
  | { side: 'http'; status: number; message: string };

/**
 * What a user sees when something fails. The reload is a plain link, so it works without
 * JavaScript; the digest is selectable in one click so it can be pasted into a support request.
 */
export function ErrorPage(props: ErrorPageProps) {
  if (props.side === 'http') {
    return (
      <main className="error" role="alert">
        <h1>{props.status}</h1>
        <h2>{props.message}</h2>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </main>
    );
  }
  const message = props.side === 'server' ? serverErrorMessage(props.hostname) : clientErrorMessage(props.hostname);
  return (
    <main className="error" role="alert">
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
    </main>
  );
}
