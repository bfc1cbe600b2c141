// A stand-in for server.mjs in the draining test: the same drainOnTerminate on a plain node:http
// server, with a stream that follows the draining signal and a response that takes a while.
import { createServer } from "node:http";
import { drainingSignal, drainOnTerminate, untilDraining } from "./server-draining.mjs";

const slowMs = Number(process.env.SLOW_MS || 600);
const server = createServer((req, res) => {
  if (req.url === "/stream") {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write("event: open\ndata: 1\n\n");
    const signal = untilDraining(new AbortController().signal);
    const beat = setInterval(() => res.write(": beat\n\n"), 100);
    signal.addEventListener("abort", () => {
      clearInterval(beat);
      res.end();
    });
    return;
  }
  if (req.url === "/slow") {
    setTimeout(() => res.end(`slow done, draining=${drainingSignal().aborted}`), slowMs);
    return;
  }
  res.end("ok");
});
drainOnTerminate(server, { graceMs: Number(process.env.GRACE_MS || 5_000) });
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`,
  );
});
