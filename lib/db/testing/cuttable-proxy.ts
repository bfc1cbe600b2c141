import net from "node:net";

/**
 * A TCP proxy in front of a database server that a test can cut: `cut(ms)` drops every
 * connection through it and stops listening (new connections are refused) until `ms` have
 * passed, then listens on the same port again. What the app sees is what it sees while the real
 * server restarts, without stopping a server other tests share.
 */
export interface CuttableProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Drops every connection and refuses new ones for `ms`; resolves when it accepts again. */
  cut(ms: number): Promise<void>;
  /** How many connections are open through it now. */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair = [client, upstream];
    for (const socket of pair) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        sockets.delete(socket);
        for (const other of pair) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy did not listen");
  return {
    port: address.port,
    async cut(ms) {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of [...sockets]) socket.destroy();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, ms));
      await new Promise<void>((resolve) => server.listen(address.port, "127.0.0.1", resolve));
    },
    openConnections: () => sockets.size / 2,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...sockets]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `url` (a PostgreSQL URL) with its port changed to the proxy's. */
export function throughProxy(url: string, proxy: CuttableProxy): string {
  const proxied = new URL(url);
  proxied.port = String(proxy.port);
  return proxied.toString();
}
