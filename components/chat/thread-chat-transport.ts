import { type ChatRequestOptions, DefaultChatTransport, type UIMessageChunk } from "ai";
import type { ChatMessage } from "./chat-message";

export type StartRun = (input: {
  threadId: string;
  text: string;
}) => Promise<{ ok: true; runId: string } | { ok: false; message: string }>;

/**
 * Sending starts a run through a server action, then follows that run's stream; reconnecting
 * asks the server for the thread's active run, which it replays from the event log and keeps
 * following live (204 when nothing is running). The server owns the run either way: closing
 * the tab only stops watching.
 */
export class ThreadChatTransport extends DefaultChatTransport<ChatMessage> {
  private readonly followRun: { runId: string | null };
  private readonly startRun: StartRun;
  private readonly threadId: string;

  constructor({ threadId, startRun }: { threadId: string; startRun: StartRun }) {
    const followRun: { runId: string | null } = { runId: null };
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
