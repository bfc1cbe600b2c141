import "server-only";
import { randomUUID } from "node:crypto";
import type { DbClient } from "@/lib/db/db-types";
import { releaseMcpWaitingSlot, renewMcpWaitingSlots, takeMcpWaitingSlot } from "@/lib/db/mcp-waiting-calls";
import type { EventBus } from "@/lib/engine/event-bus";
import { AppError } from "@/lib/errors";
import { drainingSignal } from "@/lib/http/server-draining.mjs";
import { logger } from "@/lib/log/logger";
import type { ToolExtra } from "./ask-and-wait";
import { maxWaitingPerToken, progressEveryMs, WAITING_LEASE_MS } from "./mcp-limits";

// The MCP calls waiting on one instance (ADR 0072). Each is also a row in the database, so a
// token's limit counts its calls on every instance; here they are kept by token and JSON-RPC id,
// so a `notifications/cancelled` that arrives on its own POST (the server keeps no sessions),
// maybe at another instance, finds the call it cancels.

/**
 * One waiting call. It is its own abort listener (`handleEvent`), so the signals that end it
 * (the client's connection, the SDK's per-call signal) hold this object and no closure.
 */
export class WaitingCall implements EventListenerObject {
  readonly id = randomUUID();
  /** Aborts when the wait is to end: the client left or cancelled, or the server drains. */
  readonly stop = new AbortController();
  cancelled = false;
  /** Set once the call waits on its request: what its instance's progress ticker reports on. */
  waitingOn: { extra: ToolExtra; requestId: string } | undefined;
  private step = 0;

  constructor(
    readonly tokenId: string,
    /** The JSON-RPC id the client gave the tools/call. */
    readonly callId: string | number,
  ) {}

  handleEvent(): void {
    this.stop.abort();
  }

  cancel(): void {
    this.cancelled = true;
    this.stop.abort();
  }

  /** Tells the client it still waits, when it asked for progress; a closed stream is no error. */
  async sendProgress(): Promise<void> {
    const waitingOn = this.waitingOn;
    const progressToken = waitingOn?.extra._meta?.progressToken;
    if (!waitingOn || progressToken === undefined || this.stop.signal.aborted) return;
    this.step += 1;
    const message = `Waiting for an answer in the inbox (${waitingOn.requestId}).`;
    await waitingOn.extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress: this.step, message },
      })
      .catch(() => {});
  }
}

// Every call waiting in this process, whichever instance holds it: a server that begins to shut
// down ends them all through one listener on its draining signal (one per call would pass
// Node's warning threshold of 10 listeners with the eleventh call).
const inProcess = new Set<WaitingCall>();
let drainListening = false;
function endAllOnDrain(): void {
  if (drainListening) return;
  drainListening = true;
  drainingSignal().addEventListener("abort", () => {
    for (const call of inProcess) call.handleEvent();
  });
}

export class InstanceWaits {
  /** Names this instance's rows, whose leases it renews together. */
  readonly instanceId = randomUUID();
  private readonly byToken = new Map<string, Set<WaitingCall>>();
  private renewal: ReturnType<typeof setInterval> | undefined;
  /** One timer tells every waiting call's client that it still waits, instead of one per call. */
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly db: DbClient,
    bus: EventBus,
  ) {
    bus.listenSignals((message) => {
      if (message.type === "mcp_call_cancelled") this.cancel(message.tokenId, message.callId);
    });
  }

  /** The token's calls waiting on this instance. */
  count(tokenId: string): number {
    return this.byToken.get(tokenId)?.size ?? 0;
  }

  /** Takes one of the token's waiting places, on every instance, or says the token has none left. */
  async begin(tokenId: string, callId: string | number): Promise<WaitingCall> {
    const call = new WaitingCall(tokenId, callId);
    const limit = maxWaitingPerToken();
    const slot = await takeMcpWaitingSlot({
      db: this.db,
      id: call.id,
      tokenId,
      instanceId: this.instanceId,
      leaseUntil: new Date(Date.now() + WAITING_LEASE_MS),
      limit,
    });
    if (slot.status === "full") {
      throw new AppError("rate_limited:token", {
        message: `This API token already has ${limit} calls waiting for answers; answer or cancel some first.`,
      });
    }
    let calls = this.byToken.get(tokenId);
    if (!calls) {
      calls = new Set();
      this.byToken.set(tokenId, calls);
    }
    calls.add(call);
    inProcess.add(call);
    endAllOnDrain();
    if (drainingSignal().aborted) call.handleEvent();
    this.renewal ??= setInterval(() => void this.renew(), WAITING_LEASE_MS / 3).unref();
    this.ticker ??= setInterval(() => this.tick(), progressEveryMs()).unref();
    return call;
  }

  async end(call: WaitingCall): Promise<void> {
    inProcess.delete(call);
    const calls = this.byToken.get(call.tokenId);
    calls?.delete(call);
    if (calls?.size === 0) this.byToken.delete(call.tokenId);
    if (this.byToken.size === 0) {
      clearInterval(this.renewal);
      clearInterval(this.ticker);
      this.renewal = undefined;
      this.ticker = undefined;
    }
    await releaseMcpWaitingSlot({ db: this.db, id: call.id });
  }

  /**
   * Cancels the token's waiting call with this JSON-RPC id. Two clients sharing a token may both
   * use the same id; then which one was meant cannot be told, and neither is cancelled.
   */
  cancel(tokenId: string, callId: string | number): boolean {
    const matching = [...(this.byToken.get(tokenId) ?? [])].filter((call) => call.callId === callId);
    const only = matching.length === 1 ? matching[0] : undefined;
    only?.cancel();
    return only !== undefined;
  }

  private tick(): void {
    for (const calls of this.byToken.values()) for (const call of calls) void call.sendProgress();
  }

  private async renew(): Promise<void> {
    try {
      const leaseUntil = new Date(Date.now() + WAITING_LEASE_MS);
      await renewMcpWaitingSlots({ db: this.db, instanceId: this.instanceId, leaseUntil });
    } catch (error) {
      // The next renewal tries again; meanwhile other instances may count these calls as gone.
      logger.warn({ err: error }, "MCP waiting calls: renewing their leases failed");
    }
  }
}

// One per instance, that is per event bus: an instance's cancels come through its bus.
const instances = new WeakMap<EventBus, InstanceWaits>();

export function waitingCallsOf({ db, bus }: { db: DbClient; bus: EventBus }): InstanceWaits {
  let waits = instances.get(bus);
  if (!waits) {
    waits = new InstanceWaits(db, bus);
    instances.set(bus, waits);
  }
  return waits;
}
