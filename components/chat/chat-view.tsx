"use client";

import { useChat } from "@ai-sdk/react";
import { useCallback, useId, useState } from "react";
import type { AnswerDraft, SubmitAnswer, SubmitOutcome } from "@/components/request-form/request-view";
import type { RunState } from "@/lib/engine/event-types";
import type { ChatMessage } from "./chat-message";
import { MessageList } from "./message-list";
import { type StartRun, ThreadChatTransport } from "./thread-chat-transport";

export type AnswerInChat = (input: { requestId: string; answer: AnswerDraft }) => Promise<SubmitOutcome>;

interface ChatViewProps {
  threadId: string;
  viewerId: string;
  initialMessages: ChatMessage[];
  /** The thread's run when the page was rendered, if it was running or parked: the view reattaches to it. */
  activeRunId: string | null;
  startRun: StartRun;
  answer: AnswerInChat;
}

/** The stream route answers errors as JSON; show its message, not the raw body. */
function readableError(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { message?: unknown };
    if (typeof parsed.message === "string") return parsed.message;
  } catch {
    // Not JSON: already a message.
  }
  return error.message;
}

function lastRunStatus(messages: ChatMessage[]): RunState | undefined {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return undefined;
  const run = last.parts.findLast((part) => part.type === "data-run");
  return run?.type === "data-run" ? run.data.status : undefined;
}

export function ChatView({
  threadId,
  viewerId,
  initialMessages,
  activeRunId,
  startRun,
  answer,
}: ChatViewProps) {
  // Created once per mounted thread (the page keys the view by thread): a transport swapped
  // mid-stream would drop the stream it is reading.
  const [transport] = useState(
    () => new ThreadChatTransport({ threadId, startRun, resumeRunId: activeRunId }),
  );
  const { messages, sendMessage, status, error, clearError } = useChat<ChatMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    resume: activeRunId !== null,
  });
  const [text, setText] = useState("");
  const inputId = useId();

  const submitFor = useCallback(
    (requestId: string): SubmitAnswer =>
      (draft) =>
        answer({ requestId, answer: draft }),
    [answer],
  );

  const runStatus = lastRunStatus(messages);
  const parked = runStatus === "pending";
  const busy = status === "submitted" || status === "streaming" || parked || runStatus === "running";

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed || busy) return;
    clearError();
    setText("");
    void sendMessage({ text: trimmed });
  };

  return (
    <div className="chat">
      <MessageList messages={messages} viewerId={viewerId} submitFor={submitFor} />
      {error && (
        <p role="alert" className="alert alert-error">
          {readableError(error)}
        </p>
      )}
      <form className="chat-input" onSubmit={onSubmit}>
        <label htmlFor={inputId} className="visually-hidden">
          Message
        </label>
        <textarea
          id={inputId}
          rows={2}
          value={text}
          placeholder={
            parked
              ? "Waiting for the request above to be answered…"
              : busy
                ? "The agent is working on your last message…"
                : "Ask the agent for something"
          }
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) onSubmit(event);
          }}
        />
        <button type="submit" className="button" disabled={busy || text.trim().length === 0}>
          Send
        </button>
      </form>
    </div>
  );
}
