import type { Ask, Reply } from "./elicitation";
import type { LiveCall } from "./live-call";

/** A call kept open while its question waits for a person, keyed by the request id. */
export interface ParkedCall {
  call: LiveCall;
  ask: Ask;
  respond: (reply: Reply) => void;
  fail: (error: Error) => void;
}

interface Entry extends ParkedCall {
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The in-process half of durable elicitation: while this process lives, the answer goes
 * straight to the waiting call. Everything here is an optimisation over the restart path
 * (call again, replay the stored answers), so an entry may be dropped at any time.
 */
export class ParkedCalls {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly parkTimeoutMs: number) {}

  get size(): number {
    return this.entries.size;
  }

  park(requestId: string, parked: ParkedCall): void {
    const timer = setTimeout(
      () => this.drop(requestId, "The question was not answered in time"),
      this.parkTimeoutMs,
    );
    // A parked question alone must not keep a finished host process alive.
    timer.unref?.();
    this.entries.set(requestId, { ...parked, timer });
    // A server that gives up on its question (its own timeout, a crash) ends the call; the
    // entry goes with it and a later answer takes the restart path.
    parked.call.finished.then(() => {
      if (this.entries.get(requestId)?.call === parked.call) this.remove(requestId);
    });
  }

  /** Takes the entry for an answered request, if the call is still open. */
  take(requestId: string): ParkedCall | undefined {
    const entry = this.entries.get(requestId);
    if (!entry) return undefined;
    this.remove(requestId);
    if (entry.call.ended) return undefined;
    return entry;
  }

  /** Ends a parked call: the question is withdrawn and the server told the call is cancelled. */
  drop(requestId: string, reason: string): void {
    const entry = this.entries.get(requestId);
    if (!entry) return;
    this.remove(requestId);
    entry.call.cancel(new Error(reason));
    entry.fail(new Error(reason));
  }

  dropAll(reason: string): void {
    for (const id of [...this.entries.keys()]) this.drop(id, reason);
  }

  private remove(requestId: string): void {
    const entry = this.entries.get(requestId);
    if (entry) clearTimeout(entry.timer);
    this.entries.delete(requestId);
  }
}
