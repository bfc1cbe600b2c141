"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import {
  answerRequestAction,
  readAnswerDataAction,
  readEscalationStepsAction,
  readVoteTallyAction,
} from "@/app/requests/actions";
import {
  type ChatAllowanceItem,
  ChatAllowances,
  type RevokeAllowance,
} from "@/components/chat/chat-allowances";
import { ChatView } from "@/components/chat/chat-view";
import type { StartRun } from "@/components/chat/thread-chat-transport";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { cancelRunAction, revokeToolAllowanceAction, startRunAction } from "../actions";

interface ThreadChatProps {
  threadId: string;
  viewerId: string;
  initialMessages: ChatMessage[];
  activeRunId: string | null;
  allowances: ChatAllowanceItem[];
}

/** Binds the chat view to this app's server actions. */
export function ThreadChat({ allowances, ...props }: ThreadChatProps) {
  const router = useRouter();
  const startRun = useCallback<StartRun>(
    async (input) => {
      const result = await startRunAction(input);
      // The first message names the thread; refresh the server-rendered title and sidebar.
      if (result.ok) router.refresh();
      return result;
    },
    [router],
  );
  const revoke = useCallback<RevokeAllowance>(
    async ({ toolName }) => {
      const result = await revokeToolAllowanceAction({ threadId: props.threadId, toolName });
      router.refresh();
      return result;
    },
    [props.threadId, router],
  );
  // An approval may have allowed a tool for this chat: once its run resumes, read the list again.
  // Only then: a page refresh on every status (a park, say) is a request that can be cut mid-way
  // when the connection drops, and a failed refresh takes the whole page down.
  const onRunStatus = useCallback(
    (status: string) => {
      if (status === "running") router.refresh();
    },
    [router],
  );
  return (
    <>
      <ChatAllowances allowances={allowances} revoke={revoke} />
      <ChatView
        {...props}
        startRun={startRun}
        answer={answerRequestAction}
        cancelRun={cancelRunAction}
        readTally={readVoteTallyAction}
        readAnswer={readAnswerDataAction}
        readEscalation={readEscalationStepsAction}
        onRunStatus={onRunStatus}
      />
    </>
  );
}
