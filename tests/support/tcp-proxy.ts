// A TCP proxy in front of a dependency, to break it the ways production does: `down` closes
// every connection and refuses new ones (a crash, a restart), `stall` keeps connections open but
// passes nothing on (a frozen host, a partition without resets), `up` serves again.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  down(): Promise<void>;
  stall(): void;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  let port = 0;
  let server: Server | undefined;

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client)).on('error', () => {});
        if (stalled) return; // accepted, never answered
        const upstream = connect(target.port, target.host);
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream)).on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        client.on('data', (chunk) => stalled || upstream.write(chunk));
        upstream.on('data', (chunk) => stalled || client.write(chunk));
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (server === undefined) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    port,
    down: stop,
    stall: () => void (stalled = true),
    async up() {
      stalled = false;
      if (server === undefined) await listen();
    },
    close: stop,
  };
}
