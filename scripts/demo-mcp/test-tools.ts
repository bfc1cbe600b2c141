import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("cancelled"));
    });
  });

/**
 * Tools only the test suite and the benchmark turn on (`--test-tools`): they crash, stall and
 * change the tool list on purpose, which a demo must never offer a model.
 */
export function registerTestTools(server: McpServer, log: (line: string) => void): void {
  server.registerTool(
    "echo",
    {
      description: "Echo the text back",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => text(value),
  );

  server.registerTool(
    "slow",
    {
      description: "Wait, reporting progress every `progressEveryMs` when asked to",
      inputSchema: {
        ms: z.number().int().nonnegative(),
        progressEveryMs: z.number().int().positive().optional(),
      },
    },
    async ({ ms, progressEveryMs }, extra) => {
      const token = extra._meta?.progressToken;
      const step = progressEveryMs ?? ms;
      try {
        for (let waited = 0; waited < ms; waited += step) {
          await sleep(Math.min(step, ms - waited), extra.signal);
          if (progressEveryMs && token !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: waited + step, total: ms },
            });
          }
        }
      } catch {
        log(`slow cancelled after a cancellation from the client`);
        return text("cancelled");
      }
      log(`slow finished ${ms}`);
      return text(`waited ${ms} ms`);
    },
  );

  server.registerTool(
    "crash",
    { description: "Exit the server process in the middle of the call" },
    async () => {
      setTimeout(() => process.exit(3), 20);
      await sleep(10_000);
      return text("unreachable");
    },
  );

  server.registerTool(
    "add_tool",
    {
      description: "Register one more tool (the client gets tools/list_changed)",
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      server.registerTool(name, { description: `Added at run time: ${name}` }, async () =>
        text(`${name} ran`),
      );
      return text(`added ${name}`);
    },
  );
}
