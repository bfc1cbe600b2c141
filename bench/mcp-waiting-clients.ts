// Grandchild of the `mcp-waiting` section: the agents. It opens `calls` tools/call POSTs to the
// MCP server and keeps each stream open until its result arrives, in a process of its own so
// that its sockets and buffers are not counted as the server's memory. Plain HTTP with the
// JSON-RPC body the SDK's client sends, since a thousand SDK clients would measure the clients.
import http from "node:http";

export interface ClientsStart {
  url: string;
  token: string;
  calls: number;
  /** Distinguishes the warm-up's calls from the measured ones. */
  tag: string;
}

export type ClientsMessage =
  | { type: "ready" }
  | { type: "done"; tag: string; results: number; failures: string[] };

const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

function call(start: ClientsStart, id: number): Promise<string | null> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "permission_prompt",
      // As Claude Code's client does: the server then tells it every 10 s that the call still waits.
      _meta: { progressToken: id },
      arguments: { tool_name: "Bash", input: { command: `echo ${id}` }, tool_use_id: `${start.tag}-${id}` },
    },
  });
  return new Promise((resolve) => {
    const request = http.request(
      start.url,
      {
        method: "POST",
        agent,
        headers: {
          Authorization: `Bearer ${start.token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve(
            text.includes('\\"behavior\\"') ? null : `HTTP ${response.statusCode}: ${text.slice(0, 300)}`,
          ),
        );
        response.on("error", (error) => resolve(error.message));
      },
    );
    request.on("error", (error) => resolve(error.message));
    request.end(body);
  });
}

process.on("message", async (start: ClientsStart) => {
  const outcomes = await Promise.all(Array.from({ length: start.calls }, (_, i) => call(start, i + 1)));
  const failures = outcomes.filter((outcome): outcome is string => outcome !== null);
  const done: ClientsMessage = {
    type: "done",
    tag: start.tag,
    results: outcomes.length - failures.length,
    failures: failures.slice(0, 3),
  };
  process.send?.(done);
});
// A message sent before this process listens would be lost: the parent waits for this one.
process.send?.({ type: "ready" } satisfies ClientsMessage);
