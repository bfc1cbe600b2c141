"use client";

import { Chat, type UseChatHelpers, useChat } from "@ai-sdk/react";
import { useEffect, useState } from "react";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { reconnectDelayMs } from "../reconnect-delay";
import { isLiveRun, lastRun } from "./last-run";
import {
  type ConnectionNotice,
  connectionNotice,
  type StreamEnd,
  shouldKeepTrying,
  shouldReattach,
} from "./reconnect-policy";
import { type ReattachMetadata, type StartRun, ThreadChatTransport } from "./thread-chat-transport";

/** A run whose stream was lost, and how many reattaches to it have failed in a row. */
interface LostStream {
  runId: string;
  failures: number;
}

interface ReconnectorInit {
  threadId: string;
  initialMessages: ChatMessage[];
  startRun: StartRun;
  resumeRunId: string | null;
  onLostChange: (lost: LostStream | null) => void;
  /** The thread's open requests changed without an event (a `data-changed` part). */
  onChange: () => void;
}

/**
 * Owns the chat and every request it makes, so it sees how each one ended: a stream lost while
 * its run is still running or parked is reattached, by the run's id, with backoff. The server
 * replays the run from its first event, which rebuilds the reply whole instead of adding to it.
 */
function createReconnector({
  threadId,
  initialMessages,
  startRun,
  resumeRunId,
  onLostChange,
  onChange,
}: ReconnectorInit) {
  let lost: LostStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  let requesting = false;
  let opened = false;
  let aborted = false;
  let mounted = false;

  const setLost = (next: LostStream | null) => {
    lost = next;
    onLostChange(next);
  };

  const transport = new ThreadChatTransport({
    threadId,
    startRun,
    resumeRunId,
    onStreamOpened: () => {
      opened = true;
      if (lost) setLost(null);
    },
  });
  const chat = new Chat<ChatMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    onFinish: ({ isAbort }) => {
      if (isAbort) aborted = true;
    },
    onData: (part) => {
      if (part.type === "data-changed") onChange();
    },
  });

  /** The run the conversation is waiting on, and whether it is still live as far as we know. */
  const waitingOn = (): { runId: string; live: boolean } | null => {
    const run = lastRun(chat.messages);
    if (run) return { runId: run.runId, live: isLiveRun(run.status) };
    // A run that has not shown anything yet has not ended either, as far as this page knows.
    return transport.runId ? { runId: transport.runId, live: true } : null;
  };

  const follow = async (request: () => Promise<void>) => {
    const mine = ++generation;
    clearTimeout(timer);
    requesting = true;
    opened = false;
    aborted = false;
    try {
      await request();
    } finally {
      if (mine === generation) requesting = false;
    }
    if (!mounted || mine !== generation) return;
    const end: StreamEnd = aborted
      ? { kind: "aborted" }
      : chat.status === "error"
        ? { kind: "failed", error: chat.error }
        : { kind: "finished" };
    const run = waitingOn();
    if (!run || !shouldReattach(end, run.live)) {
      setLost(null);
      return;
    }
    setLost({ runId: run.runId, failures: opened || !lost ? 0 : lost.failures + 1 });
    schedule();
  };

  const resume = (runId: string) => {
    const metadata: ReattachMetadata = { runId };
    void follow(() => chat.resumeStream({ metadata }));
  };

  const reattachNow = () => {
    if (!mounted || !lost || requesting) return;
    resume(lost.runId);
  };

  // Offline, an attempt could only fail: the `online` event brings the next one.
  const schedule = () => {
    clearTimeout(timer);
    if (!lost || !navigator.onLine || !shouldKeepTrying(lost.failures)) return;
    timer = setTimeout(() => {
      if (navigator.onLine) reattachNow();
    }, reconnectDelayMs(lost.failures));
  };

  return {
    chat,
    send(text: string) {
      setLost(null);
      void follow(() => chat.sendMessage({ text }));
    },
    reattachNow,
    mount() {
      mounted = true;
      if (resumeRunId) resume(resumeRunId);
    },
    unmount() {
      mounted = false;
      clearTimeout(timer);
      // Only stops watching: the run carries on on the server.
      void chat.stop();
    },
  };
}

export interface ReconnectingChat
  extends Pick<UseChatHelpers<ChatMessage>, "messages" | "status" | "error" | "clearError"> {
  send: (text: string) => void;
  /** Set while a lost stream is being reattached; null when the view is attached or idle. */
  notice: ConnectionNotice | null;
  /** Try to reattach now (no-op unless a stream was lost and no attempt is under way). */
  reattach: () => void;
  /** How many times the stream said the open requests changed without an event. */
  changes: number;
}

/**
 * `useChat` for one thread, reattaching by itself when a run's stream is lost (a server restart
 * or redeploy, a proxy timeout, a network blip), and again at once when the browser comes back
 * online or the tab becomes visible.
 */
export function useReconnectingChat({
  threadId,
  initialMessages,
  startRun,
  resumeRunId,
}: Omit<ReconnectorInit, "onLostChange" | "onChange">): ReconnectingChat {
  const [lost, setLost] = useState<LostStream | null>(null);
  const [changes, setChanges] = useState(0);
  const [online, setOnline] = useState(true);
  // Created once per mounted thread (the page keys the view by thread): a transport swapped
  // mid-stream would drop the stream it is reading.
  const [reconnector] = useState(() =>
    createReconnector({
      threadId,
      initialMessages,
      startRun,
      resumeRunId,
      onLostChange: setLost,
      onChange: () => setChanges((n) => n + 1),
    }),
  );
  const { messages, status, error, clearError } = useChat<ChatMessage>({ chat: reconnector.chat });

  useEffect(() => {
    reconnector.mount();
    setOnline(navigator.onLine);
    const onOnline = () => {
      setOnline(true);
      reconnector.reattachNow();
    };
    const onOffline = () => setOnline(false);
    const onVisible = () => {
      if (document.visibilityState === "visible") reconnector.reattachNow();
    };
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
      document.removeEventListener("visibilitychange", onVisible);
      reconnector.unmount();
    };
  }, [reconnector]);

  return {
    messages,
    status,
    error,
    clearError,
    send: reconnector.send,
    notice: lost ? connectionNotice({ failures: lost.failures, online }) : null,
    reattach: reconnector.reattachNow,
    changes,
  };
}
