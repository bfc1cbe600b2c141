import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { ElicitRequest, ElicitResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "./config";
import { connectServer, type OpenConnection } from "./connect";
import { describeFailure } from "./describe-failure";
import { askOf } from "./elicitation";
import { LiveCall } from "./live-call";

export type McpServerState = "connecting" | "connected" | "failed" | "disabled";

export interface McpHubOptions {
  /** Sent to servers in `initialize`; default "toolnexus". */
  clientName?: string;
  clientVersion?: string;
  /** Per-call inactivity timeout (reset by progress) unless a server sets its own; default 60 s. */
  timeoutMs?: number;
  /** How long starting a server, its handshake and its tool listing may take; default 30 s. */
  connectTimeoutMs?: number;
  /** How long a call parked on an unanswered elicitation stays open in-process; default 15 min. */
  parkTimeoutMs?: number;
  /** Called when a server's state or tool list changes (connected, failed, list_changed). */
  onChange?: () => void;
  /**
   * Hears every failure whose text the library keeps out of results and statuses: a connect or
   * a call that failed before the server answered (an HTTP error page, a refused connection, a
   * sign-in refused outside `authorization.failed`). The error's text is remote, chosen by the
   * server or whatever stands in front of it: a host may log it, cleaned and cut short, and
   * shows it to nobody. Not called for the server's own JSON-RPC errors, which are results.
   */
  onFailure?: (failure: McpFailure) => void;
}

/** One failure for the host's log: which server, at which step, and the error as thrown. */
export interface McpFailure {
  server: string;
  during: "connect" | "call";
  error: unknown;
}

/** The hub's settings every server shares; the host's callbacks are passed on their own. */
export type McpServerSettings = Required<Omit<McpHubOptions, "onChange" | "onFailure">>;

/**
 * One configured server: its connection (opened again on demand after it failed), its tools,
 * and the lane that lets one call at a time run on it so an elicitation can be attributed.
 */
export class McpServerConnection {
  state: McpServerState;
  error: string | undefined;
  transport: OpenConnection["transport"] | undefined;
  tools: McpTool[] = [];
  /** The last connect was refused until the user signs in (a server marked `oauth`). */
  needsAuthorization = false;
  private open: OpenConnection | undefined;
  private connecting: Promise<void> | undefined;
  private lane: Promise<void> = Promise.resolve();
  /** The call holding the lane; MCP does not say which call an elicitation belongs to. */
  private active: LiveCall | undefined;
  private closed = false;
  /** Aborted on close, so a connect in flight gives up rather than holding close() up. */
  private readonly stop = new AbortController();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: McpServerSettings,
    private readonly onToolsChanged: () => void,
    private readonly onFailure: McpHubOptions["onFailure"] = undefined,
  ) {
    this.state = config.disabled ? "disabled" : "connecting";
  }

  get timeoutMs(): number {
    return this.config.timeoutMs ?? this.options.timeoutMs;
  }

  /** Connects unless connected or disabled; never throws (a failure is the server's state). */
  connect(): Promise<void> {
    if (this.config.disabled || this.closed) return Promise.resolve();
    if (this.state === "connected") return Promise.resolve();
    this.connecting ??= this.doConnect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async doConnect(): Promise<void> {
    this.state = "connecting";
    // The close callback may fire before connectServer returns (a server dying mid-handshake).
    let opened: OpenConnection | undefined;
    try {
      const open = await connectServer(this.config, {
        clientName: this.options.clientName,
        clientVersion: this.options.clientVersion,
        timeoutMs: Math.min(
          this.options.connectTimeoutMs,
          this.config.connectTimeoutMs ?? Number.POSITIVE_INFINITY,
        ),
        signal: this.stop.signal,
        onElicit: (params, signal) => this.routeElicitation(params, signal),
        onToolsChanged: (tools) => {
          this.tools = tools;
          this.onToolsChanged();
        },
        onClose: () => this.lost(opened),
      });
      opened = open;
      if (this.closed) {
        await open.close();
        return;
      }
      this.open = open;
      this.transport = open.transport;
      this.tools = open.tools;
      this.state = "connected";
      this.error = undefined;
      this.needsAuthorization = false;
    } catch (error) {
      this.state = "failed";
      this.needsAuthorization = error instanceof UnauthorizedError;
      this.error = this.needsAuthorization ? "Waiting for the user to sign in" : describeFailure(error);
      if (!this.needsAuthorization) this.report("connect", error);
    }
    this.onToolsChanged();
  }

  /** Hands a failure's remote text to the host; a host's bug in its log never fails a call. */
  report(during: McpFailure["during"], error: unknown): void {
    try {
      this.onFailure?.({ server: this.name, during, error });
    } catch {}
  }

  private lost(open: OpenConnection | undefined): void {
    // Only the current connection's end matters; one replaced meanwhile is history.
    if (open === undefined || this.open !== open) return;
    this.open = undefined;
    if (this.closed) return;
    this.state = "failed";
    this.error = "The connection to the server closed";
    this.onToolsChanged();
  }

  private routeElicitation(params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult> {
    const call = this.active;
    if (!call || call.ended) {
      return Promise.reject(new Error("No tool call of this client is waiting for an elicitation"));
    }
    return call.elicit(askOf(params), signal);
  }

  /**
   * Waits for the lane; resolves with a release function. Calls parked on a person give the
   * lane back, so a long wait for an answer never blocks other calls.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.lane;
    this.lane = before.then(() => mine);
    if (signal) {
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
      await Promise.race([before, aborted]).catch((error) => {
        before.then(release);
        throw error;
      });
    } else {
      await before;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active = undefined;
      release();
    };
  }

  /** Starts a call on the open connection; the caller holds the lane. */
  async start(tool: string, args: Record<string, unknown>): Promise<LiveCall> {
    await this.connect();
    if (!this.open && this.needsAuthorization) throw new UnauthorizedError(this.error);
    // `error` already holds the library's short words for the connect failure, safe to show.
    if (!this.open) {
      throw Object.assign(new Error(this.error ?? "The server is not connected"), { expose: true });
    }
    const call = new LiveCall(this.open.client, tool, args, this.timeoutMs);
    this.active = call;
    return call;
  }

  /** Gives the lane-holding role back to a parked call that is about to get its answer. */
  resumeActive(call: LiveCall): void {
    this.active = call;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop.abort();
    const open = this.open;
    this.open = undefined;
    await this.connecting?.catch(() => {});
    await (open ?? this.open)?.close();
  }
}
