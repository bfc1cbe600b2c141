import { type ChatRequestOptions, DefaultChatTransport, type UIMessageChunk } from "ai";
import type { ChatMessage } from "@/lib/domain/chat-message";
import type { ActionResult } from "@/lib/errors";
import { StreamResponseError } from "./stream-response-error";

export type StartRun = (input: {
  threadId: string;
  text: string;
}) => Promise<ActionResult<{ runId: string }>>;

/** Per-request metadata a reattach passes to name the run it follows. */
export interface ReattachMetadata {
  runId: string;
}

/** A non-OK answer keeps its status, so a 503 can be told from a 401. */
const fetchStream: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.ok) throw new StreamResponseError(response.status, await response.text());
  return response;
};

function metadataRunId(metadata: unknown): string | null {
  if (typeof metadata !== "object" || metadata === null || !("runId" in metadata)) return null;
  return typeof metadata.runId === "string" ? metadata.runId : null;
}

/**
 * Sending starts a run through a server action, then follows that run's stream. Reattaching
 * (after a page load or a lost connection) names the run to follow: the server replays it from
 * the event log and keeps following it live, and a run that has ended meanwhile is simply
 * replayed to its end. Without an id it asks for the thread's active run (204 when nothing is
 * running). The server owns the run either way: closing the tab only stops watching.
 */
export class ThreadChatTransport extends DefaultChatTransport<ChatMessage> {
  private readonly followed: { runId: string | null };
  private readonly startRun: StartRun;
  private readonly threadId: string;
  private readonly onStreamOpened: () => void;

  constructor({
    threadId,
    startRun,
    resumeRunId,
    onStreamOpened,
  }: {
    threadId: string;
    startRun: StartRun;
    /** The run the server-rendered page saw running or parked, if any. */
    resumeRunId: string | null;
    /** Called whenever the server has answered a stream request with a stream. */
    onStreamOpened: () => void;
  }) {
    // Named, not "whatever is active now": asking for the active run could find none when the
    // run ends between the render and this request, leaving the page on a half-built reply.
    const followed: { runId: string | null } = { runId: resumeRunId };
    const api = `/api/threads/${encodeURIComponent(threadId)}/stream`;
    super({
      api,
      fetch: fetchStream,
      // Every reconnect replays the run from its first event, so the message is rebuilt whole.
      resumeStreamIsReplay: true,
      prepareReconnectToStreamRequest: ({ headers, credentials, requestMetadata }) => {
        const runId = metadataRunId(requestMetadata) ?? followed.runId;
        return {
          api: runId ? `${api}?run=${encodeURIComponent(runId)}` : api,
          headers,
          credentials,
        };
      },
    });
    this.followed = followed;
    this.startRun = startRun;
    this.threadId = threadId;
    this.onStreamOpened = onStreamOpened;
  }

  /** The run whose stream was last asked for: the page's, or the one the last send started. */
  get runId(): string | null {
    return this.followed.runId;
  }

  override async reconnectToStream(
    options: Parameters<DefaultChatTransport<ChatMessage>["reconnectToStream"]>[0],
  ): Promise<ReadableStream<UIMessageChunk> | null> {
    const stream = await super.reconnectToStream(options);
    if (stream) this.onStreamOpened();
    return stream;
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
    // Until the server has started a run there is none of this message to reattach to.
    this.followed.runId = null;
    const started = await this.startRun({ threadId: this.threadId, text });
    if (!started.ok) throw new Error(started.error.message);
    this.followed.runId = started.value.runId;
    const stream = await this.reconnectToStream({
      chatId: options.chatId,
      abortSignal: options.abortSignal,
      headers: options.headers,
    } as { chatId: string; abortSignal?: AbortSignal } & ChatRequestOptions);
    if (!stream) throw new Error("The run's stream is not available.");
    return stream;
  }
}
