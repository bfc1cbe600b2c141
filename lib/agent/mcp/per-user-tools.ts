import type { Context, McpServerConfig, Tool, ToolResult } from "toolnexus";
import type { McpConnection } from "./mcp-pool";

/** Opens one user's own connection to a server marked `oauth`, carrying only that user's token. */
export type ConnectUser = (name: string, entry: McpServerConfig, userId: string) => Promise<McpConnection>;

/** True for a server whose every user signs in on their own. */
export function isPerUser(entry: McpServerConfig): boolean {
  return entry.transport === "http" && entry.oauth !== undefined;
}

function noUser(server: string): ToolResult {
  return { output: `MCP server "${server}" acts for a signed-in user; this call has none`, isError: true };
}

/**
 * The users' connections to one server marked `oauth`. Tokens are per user, so connections are
 * too: two users never share one (nor its token). Tool definitions are not secrets: the last
 * list any connection saw (the anonymous probe included) stands in for a user whose own
 * connection cannot list yet, and calling one of them asks that user to sign in.
 */
export class PerUserConnections {
  private readonly users = new Map<string, Promise<McpConnection>>();
  private catalogue: Tool[] = [];

  constructor(
    private readonly name: string,
    private readonly entry: McpServerConfig,
    private readonly connectUser: ConnectUser,
  ) {}

  /** The tools as a list for someone without a user (the admin pages' catalogue). */
  known(probe: McpConnection | undefined): Tool[] {
    const listed = probe?.state().status === "connected" ? probe.tools() : [];
    if (listed.length > 0) this.catalogue = listed;
    return this.catalogue.map((tool) => ({ ...tool, execute: async () => noUser(this.name) }));
  }

  /** The tools for one user's run, each call going through that user's own connection. */
  async forUser(userId: string, probe: McpConnection | undefined, waitMs: number): Promise<Tool[]> {
    let opening = this.users.get(userId);
    if (!opening) {
      opening = this.connectUser(this.name, this.entry, userId);
      this.users.set(userId, opening);
      // A connection that could not even be created is tried again on the user's next run.
      opening.catch(() => this.users.delete(userId));
    }
    let timer: NodeJS.Timeout | undefined;
    const connection = await Promise.race([
      opening.catch(() => undefined),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), waitMs);
      }),
    ]);
    clearTimeout(timer);
    const own = connection?.state().status === "connected" ? connection.tools() : [];
    if (own.length > 0) {
      this.catalogue = own;
      return own;
    }
    const pending = opening;
    return this.known(probe).map((tool) => ({
      ...tool,
      execute: async (args: Record<string, unknown>, ctx?: Context) => {
        const mine = await pending.catch(() => undefined);
        if (!mine) return { output: `MCP server "${this.name}" could not be reached`, isError: true };
        return mine.call(tool.name, args, ctx ?? {});
      },
    }));
  }

  async close(): Promise<void> {
    const open = [...this.users.values()];
    this.users.clear();
    await Promise.all(
      open.map(async (opening) => (await opening.catch(() => undefined))?.close().catch(() => {})),
    );
  }
}
