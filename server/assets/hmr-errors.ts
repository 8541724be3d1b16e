import type { ErrorPayload, HotPayload, Plugin, WebSocketClient } from 'vite';

// Development's compile errors, told to a page that connects later only while nothing has
// changed since (server/assets/frontend.ts). Vite's HMR server keeps an error it sent while no
// page was connected and hands it to the next page that connects, however much has changed in
// between (vitejs/vite#19710). A route that does not compile makes every page the dev error
// page, which has no HMR client, so that was the common case: after the fix, the next page
// opened showed the error long gone in Vite's overlay, and loaded its document again on its
// first edit instead of revalidating its data. Here the host keeps that error in Vite's place,
// and drops it once any watched file changes or anything compiles (a payload that is not an
// error): a compile that still fails says so again, to the pages connected by then.

export function currentCompileErrors(): Plugin {
  return {
    name: 'react-ssr-host:current-compile-errors',
    apply: 'serve',
    // On each server Vite makes, its restarts' included.
    configureServer({ ws, watcher }) {
      let held: ErrorPayload | undefined;
      // Vite's channel takes a payload, or a custom event's name and its data.
      const send: (payload: HotPayload | string, data?: unknown) => void = ws.send.bind(ws);
      ws.send = (payload: HotPayload | string, data?: unknown) => {
        const error = typeof payload === 'object' && payload.type === 'error';
        held = error && ws.clients.size === 0 ? payload : undefined;
        if (held === undefined) send(payload, data);
      };
      watcher.on('all', () => (held = undefined));
      // Once, to the first page, as Vite would; after Vite's own "connected", which it sends once this event's listeners have run.
      ws.on('vite:client:connect', (_data: unknown, client: WebSocketClient) => {
        const error = held;
        held = undefined;
        if (error !== undefined) setImmediate(() => client.send(error));
      });
    },
  };
}
