import type { ErrorPayload, HotPayload, ViteDevServer, WebSocketClient } from 'vite';

// Development's compile errors, told to every page that connects while they still hold
// (server/assets/frontend.ts). Vite's HMR server keeps only an error sent while no page was
// connected, hands it to the next page that connects even when the file was fixed since, and
// to no page after it (vitejs/vite#19710): a page opened after a fix showed Vite's overlay for
// an error long gone, and Vite's client then loaded the document again on its first update
// instead of revalidating its data. Here the host keeps the last error itself until the file it
// names changes again (a compile that fails once more is a new error), and sends it to each page
// that connects meanwhile.

export function replayCurrentCompileErrors(vite: ViteDevServer): void {
  const { ws, watcher } = vite;
  let held: ErrorPayload | undefined;
  // Vite's channel takes a payload, or a custom event's name and its data.
  const send: (payload: HotPayload | string, data?: unknown) => void = ws.send.bind(ws);
  ws.send = (payload: HotPayload | string, data?: unknown) => {
    if (typeof payload === 'object' && payload.type === 'error') {
      held = payload;
      // Vite would keep it for the next page alone: the host sends it to each.
      if (ws.clients.size === 0) return;
    }
    send(payload, data);
  };
  // An error that names no file may be settled by any change: the next compile says whether it holds.
  const settle = (file: string) => {
    const named = held?.err.id?.split('?')[0];
    if (held !== undefined && (named === undefined || named === file)) held = undefined;
  };
  watcher.on('change', settle).on('unlink', settle);
  // After Vite's own "connected", which it sends once this event's listeners have run.
  ws.on('vite:client:connect', (_data: unknown, client: WebSocketClient) => {
    const error = held;
    if (error !== undefined) setImmediate(() => client.send(error));
  });
}
