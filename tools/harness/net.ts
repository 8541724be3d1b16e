import { createServer, type Server, type AddressInfo } from 'node:net';

/** Everything the harness starts listens on loopback only. */
export const HOST = '127.0.0.1';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `count` distinct free ports: each probe holds its port until all are taken, so two of them can
 * never be the same (one at a time, the kernel may hand a port just released out again: compose's
 * balancer and a replica once got one port between them).
 */
export async function freePorts(count: number, host = HOST): Promise<number[]> {
  const probes = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const probe = createServer();
          probe.once('error', reject);
          probe.listen(0, host, () => resolve(probe));
        }),
    ),
  );
  const ports = probes.map((probe) => (probe.address() as AddressInfo).port);
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}

/** A port nothing listens on right now: the kernel's pick, released for the caller to take. */
export async function freePort(host = HOST): Promise<number> {
  const [port] = await freePorts(1, host);
  return port!;
}
