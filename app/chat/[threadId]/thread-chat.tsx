"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { answerRequestAction } from "@/app/requests/actions";
import { type AnswerInChat, type CancelRun, ChatView } from "@/components/chat/chat-view";
import type { StartRun } from "@/components/chat/thread-chat-transport";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { cancelRunAction, startRunAction } from "../actions";

interface ThreadChatProps {
  threadId: string;
  viewerId: string;
  initialMessages: ChatMessage[];
  activeRunId: string | null;
}

/** Binds the chat view to this app's server actions. */
export function ThreadChat(props: ThreadChatProps) {
  const router = useRouter();
  const startRun = useCallback<StartRun>(
    async (input) => {
      const result = await startRunAction(input);
      if (!result.ok) return { ok: false, message: result.error.message };
      // The first message names the thread; refresh the server-rendered title and sidebar.
      router.refresh();
      return { ok: true, runId: result.value.runId };
    },
    [router],
  );
  const answer = useCallback<AnswerInChat>(async (input) => {
    const result = await answerRequestAction(input);
    return result.ok
      ? { ok: true }
      : { ok: false, message: result.error.message, issues: result.error.issues };
  }, []);
  const cancelRun = useCallback<CancelRun>(async (input) => {
    const result = await cancelRunAction(input);
    return result.ok ? { ok: true } : { ok: false, message: result.error.message };
  }, []);
  return <ChatView {...props} startRun={startRun} answer={answer} cancelRun={cancelRun} />;
}
