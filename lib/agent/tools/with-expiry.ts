import { pendingOf, type Tool } from "toolnexus";
import { type Clock, expiresIn } from "./tool-clock";

/**
 * The same tool, but every suspension it produces without an `expiresAt` gets one, so no
 * request can sit open forever. Used for the library's built-in `question` tool, which
 * cannot know how long this app is willing to wait.
 */
export function withExpiry(tool: Tool, options: { clock: Clock; ttlMs: number }): Tool {
  return {
    ...tool,
    async execute(args, ctx) {
      const result = await tool.execute(args, ctx);
      const request = pendingOf(result);
      if (!request || request.expiresAt !== undefined) return result;
      return {
        ...result,
        metadata: {
          ...result.metadata,
          pending: { ...request, expiresAt: expiresIn(options.clock, options.ttlMs) },
        },
      };
    },
  };
}
