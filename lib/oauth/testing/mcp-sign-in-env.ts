import { createMcpHub, type McpHub, pendingOf, type Request, type ToolResult } from "toolnexus";
import type { DbClient } from "@/lib/db/db-types";
import { beginMcpAuthorization } from "../begin-mcp-authorization";
import { completeMcpAuthorization } from "../complete-mcp-authorization";
import { createMcpOAuthProvider, type McpSignInServer } from "../mcp-client-provider";
import { mcpSignInFailure, mcpSignInRequest } from "../mcp-sign-in-request";
import type { OAuthRuntime } from "../oauth-runtime";
import { completeDemoConsent } from "./demo-consent-driver";
import { createParkedAuthorization } from "./oauth-fixtures";
import { claimingAnswerer, TEST_APP_URL } from "./oauth-test-env";

export const MCP_TOOL = "bank_recent_transactions";

/** The steps of an MCP server sign-in as its tests take them, on one database and runtime. */
export function mcpSignInSteps(get: () => { db: DbClient; runtime: OAuthRuntime; server: McpSignInServer }) {
  let counter = 0;
  const hubs: McpHub[] = [];

  /** A user's own connection to the server, as the app's pool opens one per user. */
  async function hubFor(userId: string): Promise<McpHub> {
    const { db, runtime, server } = get();
    const hub = createMcpHub({
      servers: [
        {
          name: server.name,
          config: {
            transport: "http",
            url: server.url,
            disabled: false,
            oauth: server.oauth,
            authorization: {
              provider: createMcpOAuthProvider({ db, runtime, userId, server, mode: { kind: "run" } }),
              pending: (ctx) => mcpSignInRequest({ appUrl: runtime.appUrl, server, ctx }),
              failed: (error) => mcpSignInFailure(server.name, error),
            },
          },
        },
      ],
    });
    hubs.push(hub);
    await hub.ready();
    return hub;
  }

  async function call(
    hub: McpHub,
    ctx: Parameters<NonNullable<ReturnType<McpHub["tools"]>[number]>["execute"]>[1] = {},
  ) {
    const tool = hub.tools().find((candidate) => candidate.name === MCP_TOOL);
    if (!tool) throw new Error(`${MCP_TOOL} is not offered: ${JSON.stringify(hub.status())}`);
    return tool.execute({}, ctx);
  }

  /** A user whose first call parked on a sign-in request, with that request stored as the engine would. */
  async function parkedUser() {
    counter += 1;
    const { db } = get();
    const probe = mcpSignInRequest({
      appUrl: TEST_APP_URL,
      server: get().server,
      ctx: { idempotencyKey: `run-${counter}:call-1` },
    });
    const wireId = pendingOf(probe)!.id;
    const fixture = await createParkedAuthorization(db, { wireId, provider: `mcp:${get().server.name}` });
    const hub = await hubFor(fixture.user.id);
    const first = await call(hub, { idempotencyKey: `run-${counter}:call-1` });
    // `request` is the stored row; `pending` what the call returned (undefined when it failed).
    return {
      ...fixture,
      wireId,
      hub,
      first,
      pending: pendingOf(first),
      actor: { id: fixture.user.id, role: "user" as const },
    };
  }

  function begin(userId: string, wireRequestId: string) {
    const { db, runtime, server } = get();
    return beginMcpAuthorization({ db, runtime, userId, server, serverName: server.name, wireRequestId });
  }

  async function consent(url: URL, username = "demo", decision: "allow" | "deny" = "allow") {
    return completeDemoConsent({
      authorizationUrl: url.toString(),
      redirectPrefix: `${TEST_APP_URL}/oauth/mcp/${get().server.name}/callback`,
      decision,
      username,
    });
  }

  function complete(actor: { id: string; role: "user" }, params: URLSearchParams, now?: Date) {
    const { db, runtime, server } = get();
    return completeMcpAuthorization({
      db,
      runtime,
      user: actor,
      server,
      serverName: server.name,
      params,
      answerRequest: claimingAnswerer(db),
      ...(now ? { now } : {}),
    });
  }

  /** The retry the loop makes once the request is answered. */
  function retry(hub: McpHub, request: Request): Promise<ToolResult> {
    return call(hub, { answer: { id: request.id, ok: true }, request });
  }

  const closeAll = () => Promise.all(hubs.splice(0).map((hub) => hub.close()));
  return { hubFor, call, parkedUser, begin, consent, complete, retry, closeAll };
}
