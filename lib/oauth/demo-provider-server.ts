import { createServer, type Server } from "node:http";
import { createDemoProvider, type DemoProvider, type DemoProviderOptions, send } from "./demo-provider";

/**
 * Starts the demo provider on `host:port` (port 0 picks a free one); resolves once listening.
 * Without `issuer` the provider names itself after the address it listens on.
 */
export async function startDemoProviderServer(
  options: Omit<DemoProviderOptions, "issuer"> & { issuer?: string; port: number; host?: string },
): Promise<{ server: Server; demo: DemoProvider; issuer: string; close(): Promise<void> }> {
  const host = options.host ?? "127.0.0.1";
  let demo: DemoProvider | undefined;
  const server = createServer((req, res) => {
    if (demo) demo.handle(req, res);
    else send(res, 503, "text/plain", "starting");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const issuer = options.issuer ?? `http://${host}:${port}`;
  demo = createDemoProvider({ ...options, issuer });
  return {
    server,
    demo,
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
