import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The benchmark's model: an OpenAI-compatible `/chat/completions` endpoint with one fixed policy.
 * No tool results in the transcript yet → call every offered tool (at most two) in parallel;
 * otherwise → answer `FINAL_TEXT`. It does as little as possible per request so that the
 * contenders' own cost dominates, and it counts its CPU time so that cost can be reported.
 */
export const FINAL_TEXT = "Both tools are done.";

export interface BenchStubServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

export interface StubStats {
  requests: number;
  cpuMicros: number;
}

const USAGE = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: Array<{ role?: string }>;
  tools?: Array<{ function?: { name?: string } }>;
}

function replyFor(body: ChatBody, sequence: number) {
  const sawToolResult = body.messages?.some((m) => m.role === "tool") ?? false;
  if (sawToolResult) return { message: { role: "assistant", content: FINAL_TEXT }, finish: "stop" };
  const names = (body.tools ?? []).slice(0, 2).map((t) => t.function?.name ?? "unknown");
  const tool_calls = names.map((name, i) => ({
    id: `call_${sequence}_${i}`,
    type: "function",
    function: { name, arguments: JSON.stringify({ value: `v${i}` }) },
  }));
  return { message: { role: "assistant", content: null, tool_calls }, finish: "tool_calls" };
}

function writeJson(res: ServerResponse, body: ChatBody, sequence: number) {
  const { message, finish } = replyFor(body, sequence);
  const payload = JSON.stringify({
    id: `chatcmpl-${sequence}`,
    object: "chat.completion",
    created: 1,
    model: body.model ?? "bench",
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: USAGE,
  });
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

// Streaming clients get the same reply as one SSE chunk per field, which is what real servers send.
function writeSse(res: ServerResponse, body: ChatBody, sequence: number) {
  const { message, finish } = replyFor(body, sequence);
  const base = {
    id: `chatcmpl-${sequence}`,
    object: "chat.completion.chunk",
    created: 1,
    model: body.model ?? "bench",
  };
  const delta =
    "tool_calls" in message
      ? { role: "assistant", tool_calls: message.tool_calls?.map((call, index) => ({ index, ...call })) }
      : { role: "assistant", content: message.content };
  let out = `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  out += `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage: USAGE })}\n\n`;
  out += "data: [DONE]\n\n";
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(out);
}

export async function startBenchStubServer(port = 0): Promise<BenchStubServer & { stats(): StubStats }> {
  let requests = 0;
  const cpuAtStart = process.cpuUsage();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && req.url === "/stats") {
      const cpu = process.cpuUsage(cpuAtStart);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ requests, cpuMicros: cpu.user + cpu.system } satisfies StubStats));
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests++;
      let body: ChatBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatBody;
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid json"}');
        return;
      }
      if (body.stream) writeSse(res, body, requests);
      else writeJson(res, body, requests);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    stats: () => {
      const cpu = process.cpuUsage(cpuAtStart);
      return { requests, cpuMicros: cpu.user + cpu.system };
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
