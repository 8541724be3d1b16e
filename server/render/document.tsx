import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { HostnameContext } from '../../shared/host-boundary.tsx';
import { renderOf } from './render-context.ts';
import { documentHeadStream } from './document-head.ts';

// The document of every page whose app has no entry.server of its own (vite/react-router-host.ts
// puts it where React Router would put its default, @react-router/dev's default entry.server for Node,
// which it follows): React's stream of the app's document, with what the host adds. Every script
// carries the answer's CSP nonce (<ServerRouter nonce> for React Router's, React's own through its
// option). The render stops at the host's deadline, after the grace React Router also gives
// (../edge/request-deadline.ts). A section that fails after the shell gets the failure's digest, which
// React writes into the page and hands the browser as `error.digest` (shared/digest-proof.ts).
// A crawler gets the whole page at once (https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation).
// The host's additions to the head go in here, in React's own stream (./document-head.ts).

/** Tells ./host-build.ts that this entry writes the head's additions itself: an app's own entry gets them written into its answer. */
export const writesDocumentHead = true;

const HTML_TYPE = 'text/html; charset=utf-8';

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Promise<Response> | Response {
  const render = renderOf(loadContext);
  // HEAD: the status and headers GET would have, no body (RFC 9110 §9.3.2): rendered up to the
  // point GET answers, since a shell that fails makes the answer a 500.
  const head = request.method === 'HEAD';
  const nonce = render?.nonce;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    const shellReady = () => {
      shellRendered = true;
    };
    const ready = () => {
      shellReady();
      responseHeaders.set('Content-Type', HTML_TYPE);
      if (head) {
        resolve(new Response(null, { headers: responseHeaders, status }));
        return abort();
      }
      const body = render === undefined ? new PassThrough() : documentHeadStream(render.head);
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <HostnameContext value={render?.hostname}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </HostnameContext>,
      {
        nonce,
        ...(render?.bot || routerContext.isSpaMode ? { onShellReady: shellReady, onAllReady: ready } : { onShellReady: ready }),
        onShellError: reject,
        onError(error) {
          // A HEAD answered at its shell: what its abort stops was never going to be sent.
          if (head && shellRendered) return undefined;
          // The shell's failure is the answer's status too; a section's after it is not, even while a
          // crawler's whole page is still held: the section is client-rendered, as for a browser.
          if (!shellRendered) status = 500;
          // Recorded once (the shell's failure is met again by ./host-build.ts, the same value);
          // React writes the digest and its proof into the page for the browser.
          return render?.record(error, 'render').pageDigest;
        },
      },
    );
    render?.deadline.renderSignal.addEventListener('abort', () => abort(render.deadline.renderSignal.reason), { once: true });
  });
}
