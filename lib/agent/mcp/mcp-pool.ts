import type { Context, McpServerConfig, Tool, ToolResult } from "toolnexus";
import { type ConnectUser, isPerUser, PerUserConnections } from "./per-user-tools";

/** Where a server was configured: the server's config file, or an admin at /admin/tools. */
export type McpServerOrigin = "config" | "admin";

/** One server the app should have, as the config file and the admins' list say right now. */
export type DesiredServer = { name: string; origin: McpServerOrigin } & (
  | { status: "enabled"; entry: McpServerConfig; key: string }
  | { status: "disabled" }
  | { status: "invalid"; error: string }
);

export interface DesiredServers {
  servers: DesiredServer[];
  /** A problem with the config file as a whole (unreadable, not JSON); its servers are missing. */
  configError?: string;
}

export type ConnectionState =
  | { status: "connected"; toolCount: number; error?: string }
  | { status: "failed"; toolCount: number; error: string };

/** One live server, as the library's toolkit for it reports. */
export interface McpConnection {
  tools(): Tool[];
  state(): ConnectionState;
  /** Calls a tool by its toolnexus name; a server waiting for its user's sign-in asks for it. */
  call(tool: string, args: Record<string, unknown>, ctx: Context): Promise<ToolResult>;
  close(): Promise<void>;
}

export type ConnectServer = (name: string, entry: McpServerConfig) => Promise<McpConnection>;

export interface McpServerState {
  name: string;
  origin: McpServerOrigin;
  status: "connected" | "failed" | "disabled";
  toolCount: number;
  error?: string;
  /** Each user signs in to this server on their own (it is marked `oauth`). */
  perUser?: true;
}

export interface McpPoolStatus {
  servers: McpServerState[];
  configError?: string;
}

export interface McpPool {
  /**
   * The tools of every connected server, after bringing the pool up to date with the config.
   * With `userId`, a server marked `oauth` offers its tools through that user's own connection.
   */
  tools(options?: { userId?: string }): Promise<Tool[]>;
  status(): Promise<McpPoolStatus>;
  /** The servers the config asks for, without connecting anything. */
  configured(): Promise<DesiredServers>;
  close(): Promise<void>;
}

interface Slot {
  origin: McpServerOrigin;
  key: string;
  connection?: McpConnection;
  connecting?: Promise<void>;
  error?: string;
  failedAt?: number;
  /** Present for a server marked `oauth`: `connection` is then only the anonymous probe. */
  perUser?: PerUserConnections;
}

// An admin's server may carry the name of one from the config file (it is then reported, not
// connected), so slots are told apart by origin too.
const slotName = (server: { origin: McpServerOrigin; name: string }) => `${server.origin}:${server.name}`;

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500) || "The server could not be reached.";
}

/**
 * The process's MCP connections, shared by every run: a server's tools are listed once per
 * connection, not per run, and a call parked on an elicitation stays open on its connection
 * while runs come and go. Each run asks for the tools, which first compares the config with
 * what is connected: a changed, added or removed server is reconnected or closed there and
 * then, so an admin's change applies to the next run without a restart, and a failed server
 * is retried at most every `retryMs`.
 */
export function createMcpPool(options: {
  loadServers: () => Promise<DesiredServers>;
  connect: ConnectServer;
  /** Opens a user's own connection to a server marked `oauth`; without it such servers get none. */
  connectUser?: ConnectUser;
  retryMs?: number;
  /** How long a run waits for servers still connecting; they join a later run. Default 20 s. */
  waitMs?: number;
  now?: () => number;
}): McpPool {
  const retryMs = options.retryMs ?? 15_000;
  const waitMs = options.waitMs ?? 20_000;
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();
  let desired: DesiredServers = { servers: [] };
  let syncing: Promise<void> = Promise.resolve();
  let closed = false;

  const drop = (slot: Slot | undefined) => {
    const connection = slot?.connection;
    if (slot) slot.connection = undefined;
    void slot?.perUser?.close();
    // A connection still being opened is closed by connect() once it sees it was replaced.
    void connection?.close().catch(() => {});
  };

  const connect = (server: { name: string; origin: McpServerOrigin }, slot: Slot, entry: McpServerConfig) => {
    slot.error = undefined;
    slot.failedAt = undefined;
    slot.connecting = (async () => {
      try {
        // The library bounds connecting by the server's timeout and never throws for a
        // server that is down; a throw here is a bug worth showing as the server's error.
        const connection = await options.connect(server.name, entry);
        if (slots.get(slotName(server)) !== slot || closed) {
          await connection.close().catch(() => {});
          return;
        }
        slot.connection = connection;
        if (connection.state().status === "failed") slot.failedAt = now();
      } catch (error) {
        slot.error = messageOf(error);
        slot.failedAt = now();
      } finally {
        slot.connecting = undefined;
      }
    })();
  };

  const isFailed = (slot: Slot) => slot.error !== undefined || slot.connection?.state().status === "failed";

  const apply = (next: DesiredServers) => {
    desired = next;
    const wanted = new Set<string>();
    for (const server of next.servers) {
      const name = slotName(server);
      wanted.add(name);
      const slot = slots.get(name);
      if (server.status !== "enabled") {
        drop(slot);
        slots.delete(name);
        continue;
      }
      if (slot && slot.key === server.key) {
        slot.origin = server.origin;
        const due = slot.failedAt !== undefined && now() - slot.failedAt >= retryMs;
        if (!slot.connecting && isFailed(slot) && due) {
          drop(slot);
          connect(server, slot, server.entry);
        }
        continue;
      }
      drop(slot);
      const fresh: Slot = { origin: server.origin, key: server.key };
      if (isPerUser(server.entry) && options.connectUser) {
        fresh.perUser = new PerUserConnections(server.name, server.entry, options.connectUser);
      }
      slots.set(name, fresh);
      connect(server, fresh, server.entry);
    }
    for (const [name, slot] of slots) {
      if (wanted.has(name)) continue;
      drop(slot);
      slots.delete(name);
    }
  };

  // Syncs are queued one after the other, so two runs starting together never open one server twice.
  const sync = async (): Promise<void> => {
    const turn = syncing.then(async () => {
      if (closed) return;
      apply(await options.loadServers());
    });
    syncing = turn.catch(() => {});
    await turn;
    const connecting = [...slots.values()].flatMap((slot) => (slot.connecting ? [slot.connecting] : []));
    if (connecting.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const enough = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([Promise.all(connecting), enough]);
    clearTimeout(timer);
  };

  return {
    async tools(request = {}) {
      await sync();
      const taken = new Set<string>();
      const tools: Tool[] = [];
      for (const server of desired.servers) {
        const slot = slots.get(slotName(server));
        const connection = slot?.connection;
        let offered: Tool[];
        if (slot?.perUser) {
          offered = request.userId
            ? await slot.perUser.forUser(request.userId, connection, waitMs)
            : slot.perUser.known(connection);
        } else if (connection !== undefined && connection.state().status === "connected") {
          offered = connection.tools();
        } else continue;
        for (const tool of offered) {
          if (taken.has(tool.name)) continue;
          taken.add(tool.name);
          tools.push(tool);
        }
      }
      return tools;
    },
    async status() {
      await sync();
      const servers = desired.servers.map((server): McpServerState => {
        const base = { name: server.name, origin: server.origin };
        if (server.status === "disabled") return { ...base, status: "disabled", toolCount: 0 };
        if (server.status === "invalid")
          return { ...base, status: "failed", toolCount: 0, error: server.error };
        const slot = slots.get(slotName(server));
        if (!slot?.connection) {
          const error = slot?.connecting ? "Still connecting" : (slot?.error ?? "Not connected");
          return { ...base, status: "failed", toolCount: 0, error };
        }
        if (slot.perUser) {
          // The probe cannot sign in; what counts is that the server answers and what it offers.
          const toolCount = slot.perUser.known(slot.connection).length;
          const state = slot.connection.state();
          if (state.status === "connected" || toolCount > 0) {
            return { ...base, status: "connected", toolCount, perUser: true };
          }
          return { ...base, ...state, perUser: true };
        }
        return { ...base, ...slot.connection.state() };
      });
      return desired.configError ? { servers, configError: desired.configError } : { servers };
    },
    configured: () => options.loadServers(),
    async close() {
      closed = true;
      await syncing;
      const open = [...slots.values()];
      slots.clear();
      await Promise.all(
        open.map(async (slot) => {
          await slot.connecting;
          await slot.connection?.close().catch(() => {});
        }),
      );
    },
  };
}
