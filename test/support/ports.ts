import type { Server } from 'node:http';
import { createServer } from 'node:net';

/**
 * Closes an HTTP server at the end of a test: connections still open (a client's kept-alive
 * sockets, which the test servers keep 65 s) are ended, not waited out.
 */
export function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  return closed;
}

/** A TCP port on 127.0.0.1 that nothing listens on at this moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
