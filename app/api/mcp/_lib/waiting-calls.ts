import type { EventBus } from "@/lib/engine/event-bus";

// The MCP calls waiting on this instance, by token: how many each token has (the limit), and
// which inbox request each JSON-RPC call id stands for, so a `notifications/cancelled` that
// arrives on its own HTTP request (the server keeps no sessions) finds the call it cancels.

export interface WaitingCall {
  tokenId: string;
  /** The JSON-RPC id the client gave the tools/call. */
  callId: string | number;
  /** Called when the client cancels the call. */
  cancel: () => void;
}

const byToken = new Map<string, Set<WaitingCall>>();

export function waitingCount(tokenId: string): number {
  return byToken.get(tokenId)?.size ?? 0;
}

/** Adds a waiting call; the returned function removes it. */
export function addWaitingCall(call: WaitingCall): () => void {
  let calls = byToken.get(call.tokenId);
  if (!calls) {
    calls = new Set();
    byToken.set(call.tokenId, calls);
  }
  calls.add(call);
  return () => {
    calls.delete(call);
    if (calls.size === 0 && byToken.get(call.tokenId) === calls) byToken.delete(call.tokenId);
  };
}

/**
 * Cancels the token's waiting call with this JSON-RPC id. Two clients sharing a token may both
 * use the same id; then which one was meant cannot be told, and neither is cancelled.
 */
export function cancelWaitingCall(tokenId: string, callId: string | number): boolean {
  const matching = [...(byToken.get(tokenId) ?? [])].filter((call) => call.callId === callId);
  const only = matching.length === 1 ? matching[0] : undefined;
  if (!only) return false;
  only.cancel();
  return true;
}

const listening = new WeakSet<EventBus>();

/**
 * Hears cancels from every instance: the cancel's POST may reach another instance than the
 * call's, so it goes out as an engine signal and the instance holding the call acts on it.
 */
export function listenForCancels(bus: EventBus): void {
  if (listening.has(bus)) return;
  listening.add(bus);
  bus.listenSignals((message) => {
    if (message.type === "mcp_call_cancelled") {
      cancelWaitingCall(message.tokenId, message.callId);
    }
  });
}
