"use client";

import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { ReadEscalation } from "@/components/request-form/escalation-steps";
import type { AnswerDraft, SubmitAnswer } from "@/components/request-form/request-view";
import type { ReadTally } from "@/components/request-form/vote-tally-view";
import { SignedOutNotice } from "@/components/signed-out-notice";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { type ActionResult, unsentResult } from "@/lib/errors";
import { ConnectionNoticeView } from "./connection-notice-view";
import { ExamplePrompts } from "./example-prompts";
import { isLiveRun, lastRun } from "./last-run";
import { MessageList } from "./message-list";
import type { ReadAnswerData } from "./pending-card";
import { StreamResponseError } from "./stream-response-error";
import type { StartRun } from "./thread-chat-transport";
import { useReconnectingChat } from "./use-reconnecting-chat";
import { useScrollToNewRequest } from "./use-scroll-to-new-request";

export type AnswerInChat = (input: {
  requestId: string;
  answer: AnswerDraft;
}) => Promise<ActionResult<unknown>>;

export type CancelRun = (input: { threadId: string; runId: string }) => Promise<ActionResult<unknown>>;

interface ChatViewProps {
  threadId: string;
  viewerId: string;
  initialMessages: ChatMessage[];
  /** The thread's run when the page was rendered, if it was running or parked: the view reattaches to it. */
  activeRunId: string | null;
  startRun: StartRun;
  answer: AnswerInChat;
  cancelRun: CancelRun;
  /** Reads a group request's votes so far, for its card. */
  readTally?: ReadTally;
  /** Reads the escalation steps an open approval has taken, for its card (ADR 0093). */
  readEscalation?: ReadEscalation;
  readAnswer?: ReadAnswerData;
  /** Called when the last run's state changes (it parked, resumed or ended), for what the page shows around the chat. */
  onRunStatus?: (status: string) => void;
}

/** The stream was refused because the session ended: no message, a way back in instead. */
function isSignedOut(error: Error | undefined): boolean {
  if (!error) return false;
  if (error instanceof StreamResponseError) return error.status === 401;
  try {
    return (JSON.parse(error.message) as { code?: unknown }).code === "unauthorized:session";
  } catch {
    return false;
  }
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

/**
 * `read` as a new function after each change the stream announced: a card reads its votes and
 * steps again at once whenever its reader is a new one, and otherwise at its next poll.
 */
function useRenewed<Input, Output>(
  read: ((input: Input) => Output) | undefined,
  changes: number,
): ((input: Input) => Output) | undefined {
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change makes a new function.
  return useMemo(() => read && ((input: Input) => read(input)), [read, changes]);
}

export function ChatView({
  threadId,
  viewerId,
  initialMessages,
  activeRunId,
  startRun,
  answer,
  cancelRun,
  readTally,
  readEscalation,
  readAnswer,
  onRunStatus,
}: ChatViewProps) {
  const { messages, send, status, error, clearError, notice, reattach, changes } = useReconnectingChat({
    threadId,
    initialMessages,
    startRun,
    resumeRunId: activeRunId,
  });
  const readTallyNow = useRenewed(readTally, changes);
  const readEscalationNow = useRenewed(readEscalation, changes);
  const [text, setText] = useState("");
  // The run a stop was sent for: it stays set after success, since the stream, not the action,
  // shows the run ending, and a second click before then could only be refused.
  const [stoppingRunId, setStoppingRunId] = useState<string | null>(null);
  const [stopError, setStopError] = useState<string | null>(null);
  const inputId = useId();
  const composer = useRef<HTMLFormElement>(null);
  useScrollToNewRequest(messages, composer);

  const submitFor = useCallback(
    (requestId: string): SubmitAnswer =>
      (draft) =>
        answer({ requestId, answer: draft }),
    [answer],
  );

  const run = lastRun(messages);
  const runStatus = run?.status;
  const seenStatus = useRef(runStatus);
  useEffect(() => {
    if (runStatus === undefined || runStatus === seenStatus.current) return;
    seenStatus.current = runStatus;
    onRunStatus?.(runStatus);
  }, [runStatus, onRunStatus]);
  const parked = run?.status === "pending";
  const stoppable = run !== undefined && isLiveRun(run.status);
  const busy = status === "submitted" || status === "streaming" || stoppable;
  const stopping = stoppable && stoppingRunId === run.runId;

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed || busy) return;
    clearError();
    setStopError(null);
    setText("");
    send(trimmed);
  };

  const onStop = async () => {
    if (!stoppable || stopping) return;
    const { runId } = run;
    setStoppingRunId(runId);
    setStopError(null);
    const result = await cancelRun({ threadId, runId }).catch(() =>
      unsentResult("The run could not be stopped. Please try again."),
    );
    if (!result.ok) {
      setStoppingRunId(null);
      setStopError(result.error.message);
      return;
    }
    // Without a stream the view cannot see the run end; a reattach replays it to the cancel.
    reattach();
  };

  // While a lost stream is being reattached its error is not news: the notice says so instead.
  const signedOut = isSignedOut(error);
  const alertText = stopError ?? (error && !notice && !signedOut ? readableError(error) : null);

  return (
    <div className="chat">
      <MessageList
        messages={messages}
        viewerId={viewerId}
        submitFor={submitFor}
        readTally={readTallyNow}
        readEscalation={readEscalationNow}
        readAnswer={readAnswer}
      />
      {messages.length === 0 && (
        <ExamplePrompts
          onPick={(prompt) => {
            setText(prompt);
            document.getElementById(inputId)?.focus();
          }}
        />
      )}
      {notice && <ConnectionNoticeView notice={notice} onRetry={reattach} />}
      {signedOut && !stopError && <SignedOutNotice />}
      {alertText && (
        <p role="alert" className="alert alert-error">
          {alertText}
        </p>
      )}
      <form ref={composer} className="chat-input" onSubmit={onSubmit}>
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
        {stoppable && (
          <button
            type="button"
            className="button button-secondary"
            aria-label="Stop the run"
            disabled={stopping}
            onClick={() => void onStop()}
          >
            Stop
          </button>
        )}
        <button type="submit" className="button" disabled={busy || text.trim().length === 0}>
          Send
        </button>
      </form>
    </div>
  );
}
