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

/** How long a user's connection may sit unused before it is closed (a call reopens it). */
export const USER_CONNECTION_IDLE_MS = 10 * 60_000;

interface UserConnection {
  opening: Promise<McpConnection>;
  lastUsed: number;
  /** Calls under way, and the opening itself: a connection is never closed under one. */
  calls: number;
}

/**
 * The users' connections to one server marked `oauth`. Tokens are per user, so connections are
 * too: two users never share one (nor its token). Tool definitions are not secrets: the last
 * list any connection saw (the anonymous probe included) stands in for a user whose own
 * connection cannot list yet, and calling one of them asks that user to sign in.
 *
 * A server with many users would otherwise hold one connection (and its session at the server)
 * per user who ever called it, for the life of the process: one unused for `idleMs` is closed,
 * and the next call, even through a tool handed out before, opens a fresh one with the user's
 * stored token.
 */
export class PerUserConnections {
  private readonly users = new Map<string, UserConnection>();
  private catalogue: Tool[] = [];
  private sweeper: NodeJS.Timeout | undefined;
  private readonly idleMs: number;

  constructor(
    private readonly name: string,
    private readonly entry: McpServerConfig,
    private readonly connectUser: ConnectUser,
    { idleMs = USER_CONNECTION_IDLE_MS }: { idleMs?: number } = {},
  ) {
    this.idleMs = idleMs;
  }

  /** The tools as a list for someone without a user (the admin pages' catalogue). */
  known(probe: McpConnection | undefined): Tool[] {
    const listed = probe?.state().status === "connected" ? probe.tools() : [];
    if (listed.length > 0) this.catalogue = listed;
    return this.catalogue.map((tool) => ({ ...tool, execute: async () => noUser(this.name) }));
  }

  /** How many users have a connection open or opening (for the tests and the admin page). */
  openCount(): number {
    return this.users.size;
  }

  /** The tools for one user's run, each call going through that user's own connection. */
  async forUser(userId: string, probe: McpConnection | undefined, waitMs: number): Promise<Tool[]> {
    const { opening } = this.userConnection(userId);
    let timer: NodeJS.Timeout | undefined;
    const connection = await Promise.race([
      opening.catch(() => undefined),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), waitMs);
      }),
    ]);
    clearTimeout(timer);
    const own = connection?.state().status === "connected" ? connection.tools() : [];
    if (own.length > 0) this.catalogue = own;
    const listed = own.length > 0 ? own : this.known(probe);
    return listed.map((tool) => ({
      ...tool,
      execute: (args: Record<string, unknown>, ctx?: Context) =>
        this.callAs(userId, tool.name, args, ctx ?? {}),
    }));
  }

  async close(): Promise<void> {
    this.stopSweeper();
    const open = [...this.users.values()];
    this.users.clear();
    await Promise.all(open.map((user) => closeQuietly(user.opening)));
  }

  /** The user's connection, opened on first use or again after it was closed for idleness. */
  private userConnection(userId: string): UserConnection {
    let user = this.users.get(userId);
    if (!user) {
      const created: UserConnection = {
        opening: this.connectUser(this.name, this.entry, userId),
        lastUsed: Date.now(),
        calls: 1,
      };
      this.users.set(userId, created);
      created.opening.then(
        () => {
          created.calls -= 1;
          created.lastUsed = Date.now();
        },
        // A connection that could not even be created is tried again on the user's next call.
        () => {
          if (this.users.get(userId) === created) this.users.delete(userId);
        },
      );
      this.startSweeper();
      user = created;
    }
    user.lastUsed = Date.now();
    return user;
  }

  private async callAs(userId: string, tool: string, args: Record<string, unknown>, ctx: Context) {
    const user = this.userConnection(userId);
    user.calls += 1;
    try {
      const mine = await user.opening.catch(() => undefined);
      if (!mine) return { output: `MCP server "${this.name}" could not be reached`, isError: true };
      return await mine.call(tool, args, ctx);
    } finally {
      user.calls -= 1;
      user.lastUsed = Date.now();
    }
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(10, Math.min(this.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [userId, user] of this.users) {
      if (user.calls > 0 || now - user.lastUsed < this.idleMs) continue;
      this.users.delete(userId);
      void closeQuietly(user.opening);
    }
    if (this.users.size === 0) this.stopSweeper();
  }
}

async function closeQuietly(opening: Promise<McpConnection>): Promise<void> {
  await (await opening.catch(() => undefined))?.close().catch(() => {});
}
