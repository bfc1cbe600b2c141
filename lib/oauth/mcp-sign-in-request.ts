import { type Context, pending, type ToolResult } from "toolnexus";
import { mcpFlowFailure } from "./begin-mcp-authorization";
import { mcpProviderName, mcpStartUrl } from "./mcp-client-provider";
import { signInRequestId } from "./sign-in-request";

/** How long the user has to sign in before the request expires, like the balance tool's. */
export const MCP_SIGN_IN_TTL_MS = 30 * 60 * 1000;

/**
 * The `authorization` request a call to a server marked `oauth` parks on when its user has no
 * usable token. Its link is the app's own start route; neither the link nor the data carry a
 * secret, so both may be shown to the model.
 */
export function mcpSignInRequest(options: {
  appUrl: string;
  server: { name: string; url: string };
  ctx: Context;
  now?: number;
}): ToolResult {
  const { server, ctx } = options;
  const provider = mcpProviderName(server.name);
  const id = signInRequestId(ctx.idempotencyKey, provider);
  const host = new URL(server.url).host;
  return pending({
    kind: "authorization",
    id,
    prompt: `Sign in to ${server.name} (${host}) so I can use its tools for you.`,
    url: mcpStartUrl(options.appUrl, server.name, id),
    data: { provider, providerLabel: server.name, host, scopes: [], mcpServer: server.name },
    expiresAt: new Date((options.now ?? Date.now()) + MCP_SIGN_IN_TTL_MS).toISOString(),
  });
}

/**
 * How a run's call to a server marked `oauth` ends when its sign-in failed for another reason
 * than a missing grant (discovery, registration or a refresh refused): the same fixed words
 * the start link shows, so neither the model nor the chat reads the server's own text, which
 * goes to the log only.
 */
export function mcpSignInFailure(server: string, error: unknown): ToolResult {
  const words = mcpFlowFailure(server, error, "a tool call's sign-in").message;
  return { output: words, isError: true, metadata: { server } };
}
