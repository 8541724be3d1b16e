import { createServer, type AddressInfo } from 'node:net';

/** Everything the harness starts listens on loopback only. */
export const HOST = '127.0.0.1';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on right now: the kernel's pick, released for the caller to take. */
export function freePort(host = HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
