// Starts a test's node:http server on 127.0.0.1 (a free port) and stops it, connections included.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening loopback server: its port, origin and a close that drops open connections. */
export interface Loopback {
  readonly port: number;
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 at a port the OS picks; only loopback is ever used by the tests.
 * @example const { origin, close } = await listenOnLoopback(createServer(handler));
 */
export async function listenOnLoopback(server: Server): Promise<Loopback> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
