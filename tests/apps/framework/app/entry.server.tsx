import { PassThrough } from 'node:stream';
import type { EntryContext, RouterContextProvider } from 'react-router';
import { createReadableStreamFromReadable } from '@react-router/node';
import { ServerRouter } from 'react-router';
import { renderToPipeableStream } from 'react-dom/server';
import { hostOf } from '../../../../shared/host.ts';

// An entry.server of the app's own, as React Router's default (@react-router/dev's
// node entry, in its package's dist/config/defaults/) writes it, with the one thing an app's entry must add on the host: the
// answer's CSP nonce on React Router's scripts and React's (docs/upgrading.md). The host records
// every failure its handleError sees before this module's (server/render/host-build.ts).

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = hostOf(loadContext);
  return new Promise((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      [routerContext.isSpaMode ? 'onAllReady' : 'onShellReady']() {
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        responseHeaders.set('Content-Type', 'text/html');
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError() {
        responseStatusCode = 500;
      },
    });
  });
}
