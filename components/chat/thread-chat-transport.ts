import { type ChatRequestOptions, DefaultChatTransport, type UIMessageChunk } from "ai";
import type { ChatMessage } from "./chat-message";

export type StartRun = (input: {
  threadId: string;
  text: string;
}) => Promise<{ ok: true; runId: string } | { ok: false; message: string }>;

/**
 * Sending starts a run through a server action, then follows that run's stream. Reattaching
 * after a page load follows the run the page saw active (`resumeRunId`): the server replays it
 * from the event log and keeps following it live, and a run that ended since the page was
 * rendered is simply replayed to its end. Without an id it asks for the thread's active run
 * (204 when nothing is running). The server owns the run either way: closing the tab only
 * stops watching.
 */
export class ThreadChatTransport extends DefaultChatTransport<ChatMessage> {
  private readonly followRun: { runId: string | null };
  private readonly startRun: StartRun;
  private readonly threadId: string;

  constructor({
    threadId,
    startRun,
    resumeRunId = null,
  }: {
    threadId: string;
    startRun: StartRun;
    /** The run the server-rendered page saw running or parked, if any. */
    resumeRunId?: string | null;
  }) {
    // Named, not "whatever is active now": asking for the active run could find none when the
    // run ends between the render and this request, leaving the page on a half-built reply.
    const followRun: { runId: string | null } = { runId: resumeRunId };
    const api = `/api/threads/${encodeURIComponent(threadId)}/stream`;
    super({
      api,
      // Every reconnect replays the run from its first event, so the message is rebuilt whole.
      resumeStreamIsReplay: true,
      prepareReconnectToStreamRequest: ({ headers, credentials }) => ({
        api: followRun.runId ? `${api}?run=${encodeURIComponent(followRun.runId)}` : api,
        headers,
        credentials,
      }),
    });
    this.followRun = followRun;
    this.startRun = startRun;
    this.threadId = threadId;
  }

  override async sendMessages(
    options: Parameters<DefaultChatTransport<ChatMessage>["sendMessages"]>[0],
  ): Promise<ReadableStream<UIMessageChunk>> {
    const last = options.messages.at(-1);
    const text =
      last?.role === "user"
        ? last.parts
            .filter((part) => part.type === "text")
            .map((part) => part.text)
            .join("")
        : "";
    const started = await this.startRun({ threadId: this.threadId, text });
    if (!started.ok) throw new Error(started.message);
    this.followRun.runId = started.runId;
    try {
      const stream = await this.reconnectToStream({
        chatId: options.chatId,
        abortSignal: options.abortSignal,
        headers: options.headers,
      } as { chatId: string; abortSignal?: AbortSignal } & ChatRequestOptions);
      if (!stream) throw new Error("The run's stream is not available.");
      return stream;
    } finally {
      this.followRun.runId = null;
    }
  }
}
