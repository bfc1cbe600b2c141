import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A real HTTP server on a loopback address that counts the connections and requests it saw. */
export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) =>
    response.end("ok"),
  host = "127.0.0.1",
) {
  const seen = { connections: 0, requests: 0 };
  const server = createServer((request, response) => {
    seen.requests += 1;
    handle(request, response);
  });
  server.on("connection", () => {
    seen.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    url: (path = "/", hostname = host) => `http://${hostname}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
