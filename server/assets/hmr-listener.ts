import { createServer, STATUS_CODES, type Server } from 'node:http';

// Vite's HMR WebSocket on a server the host listens with itself (development only,
// server/assets/frontend.ts). Given only a port, Vite listens on every interface, while the app
// listens where HOST says: a dev server bound to loopback still offered its module graph's
// updates to the whole network. Listening here binds the WebSocket to the app's address, and
// the browser still connects to the host name it loaded the page from, at HMR_PORT (Vite's
// client does so when no WebSocket host is configured).

/** A plain request to the port: it speaks only WebSocket (Vite's own server answers so too). */
const UPGRADE_REQUIRED = 426;

/** Listens on `host`:`port`; rejects if it cannot (the port taken), so the dev server says so and stops. */
export function listenForHmr(host: string, port: number): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(UPGRADE_REQUIRED, { 'Content-Type': 'text/plain' }).end(STATUS_CODES[UPGRADE_REQUIRED]);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Closes it and the browsers' sockets on it (a WebSocket never ends by itself). */
export function closeHmr(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
