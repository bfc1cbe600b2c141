import http from "node:http";

export interface OpenStream {
  /** Milliseconds from the request to the stream's first bytes. */
  firstByteMs: number;
  close(): void;
}

/**
 * Opens one server-sent-events stream on a connection of its own and resolves once its first
 * bytes arrived; fails unless the answer is a 200 event stream whose first bytes are events.
 */
export function openStream(url: string, cookie: string, timeoutMs = 60_000): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(
      url,
      { agent: false, headers: { cookie, accept: "text/event-stream" } },
      (res) => {
        const type = String(res.headers["content-type"] ?? "");
        if (res.statusCode !== 200 || !type.startsWith("text/event-stream")) {
          res.resume();
          reject(new Error(`GET ${url}: ${res.statusCode} ${type}`));
          return;
        }
        res.once("data", (chunk: Buffer) => {
          clearTimeout(timer);
          const text = chunk.toString("utf8");
          if (!/^(data|event|:)/m.test(text)) {
            request.destroy();
            reject(new Error(`GET ${url}: the stream began with ${JSON.stringify(text.slice(0, 80))}`));
            return;
          }
          // Keep reading (and discarding) so the server never blocks on a full socket.
          res.resume();
          resolve({ firstByteMs: performance.now() - started, close: () => request.destroy() });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`GET ${url}: no bytes within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
