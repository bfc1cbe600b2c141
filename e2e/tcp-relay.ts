import net from "node:net";

/**
 * A TCP relay in front of the app server. The browser reaches the app through it, and a test
 * can cut every open connection at once, the way a server restart, a redeploy or a proxy timing
 * out cuts a stream the page is reading. Nothing is rewritten: the page sees the relay's origin.
 */
export class TcpRelay {
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;
  private port = 0;

  private constructor(targetPort: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(targetPort, "127.0.0.1");
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        // A cut connection errors on both ends; closing the pair is all there is to do.
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  static async start(targetPort: number): Promise<TcpRelay> {
    const relay = new TcpRelay(targetPort);
    await new Promise<void>((resolve, reject) => {
      relay.server.once("error", reject);
      relay.server.listen(0, resolve);
    });
    relay.port = (relay.server.address() as net.AddressInfo).port;
    return relay;
  }

  /** The app's origin through the relay; the session cookie is for `localhost`, any port. */
  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  /** Resets every open connection, towards the browser and towards the app alike. */
  cutAll(): void {
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
