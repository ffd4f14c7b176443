import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { afterEach } from 'vitest';

/** Closes `server` and every connection still open on it; resolves even if it was closed already. */
export function closeServer(server: Server | NetServer): Promise<void> {
  return new Promise((resolve) => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * The loopback servers of one test file, each closed (connections included) after every test.
 * `listen` starts any Node server on 127.0.0.1; `serve` makes an HTTP server of a handler;
 * `track` adopts a server the test starts itself (e.g. on `::1`).
 */
export function loopbackServers() {
  const open: (Server | NetServer)[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map(closeServer));
  });
  const listen = async <T extends Server | NetServer>(server: T): Promise<{ server: T; origin: string; host: string }> => {
    open.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { server, host, origin: `http://${host}` };
  };
  return {
    listen,
    serve: (handler: RequestListener) => listen(createServer(handler)),
    track: <T extends Server | NetServer>(server: T): T => {
      open.push(server);
      return server;
    },
  };
}
