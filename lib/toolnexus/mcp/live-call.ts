import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Ask, Reply } from "./elicitation";

/** What a call in flight reports next: a question for the user, its result, or its failure. */
export type CallEvent =
  | { type: "elicit"; ask: Ask; respond: (reply: Reply) => void; fail: (error: Error) => void }
  | { type: "done"; result: Record<string, unknown> }
  | { type: "failed"; error: unknown };

// The SDK's own request timer cannot pause while a person answers an elicitation, so it is set
// out of reach and this call keeps its own (reset by progress, paused while parked).
const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * One `tools/call` in flight on a connection. Events queue up until the driver reads them, so
 * nothing is lost between a question being asked and the host taking the answer.
 */
export class LiveCall {
  readonly controller = new AbortController();
  ended = false;
  /** Settles when the call is over, however it ended. */
  readonly finished: Promise<void>;
  private readonly queue: CallEvent[] = [];
  private waiter: ((event: CallEvent) => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waitingOnUser = 0;

  constructor(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    private readonly timeoutMs: number,
  ) {
    this.arm();
    this.finished = client
      .callTool({ name, arguments: args }, CallToolResultSchema, {
        signal: this.controller.signal,
        timeout: NO_SDK_TIMEOUT,
        onprogress: () => this.arm(),
      })
      .then(
        (result) => this.push({ type: "done", result: result as Record<string, unknown> }),
        (error: unknown) => this.push({ type: "failed", error }),
      )
      .finally(() => {
        this.ended = true;
        this.disarm();
      });
  }

  /** Routes a server's elicitation to this call; settles when the driver replies. */
  elicit(ask: Ask, signal: AbortSignal): Promise<Reply> {
    this.waitingOnUser += 1;
    this.disarm();
    return new Promise<Reply>((resolve, reject) => {
      const settle = () => {
        this.waitingOnUser -= 1;
        if (this.waitingOnUser === 0 && !this.ended) this.arm();
      };
      signal.addEventListener("abort", () => reject(new Error("The server withdrew the question")), {
        once: true,
      });
      this.push({
        type: "elicit",
        ask,
        respond: (reply) => {
          settle();
          resolve(reply);
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      });
    });
  }

  next(): Promise<CallEvent> {
    const event = this.queue.shift();
    if (event) return Promise.resolve(event);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** Ends the call: the SDK sends MCP's `notifications/cancelled` to the server. */
  cancel(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  private push(event: CallEvent): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(event);
    else this.queue.push(event);
  }

  private arm(): void {
    this.disarm();
    if (this.ended || this.waitingOnUser > 0) return;
    this.timer = setTimeout(() => {
      this.cancel(new Error(`The server did not answer within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
