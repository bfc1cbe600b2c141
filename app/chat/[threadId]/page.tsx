import { notFound } from "next/navigation";
import { getAppServices } from "@/app/_lib/app-services";
import { requirePageUser } from "@/lib/auth/guards";
import { getActiveRunByThread } from "@/lib/db/runs";
import { listThreadsWithStatusByOwner } from "@/lib/db/threads-with-status";
import { listThreadToolAllowances } from "@/lib/db/tool-policies";
import { isAppError } from "@/lib/errors";
import { buildThreadMessages } from "../_lib/build-thread-messages";
import { loadOwnThread } from "../_lib/load-own-thread";
import { loadThreadEvents } from "../_lib/load-thread-events";
import { ThreadSidebar } from "../_lib/thread-sidebar";
import { ThreadChat } from "./thread-chat";

export default async function ThreadPage({ params }: { params: Promise<{ threadId: string }> }) {
  const { threadId } = await params;
  const user = await requirePageUser(`/chat/${encodeURIComponent(threadId)}`);
  const { db } = await getAppServices();
  const thread = await loadOwnThread({ actor: user, threadId }, { db }).catch((error: unknown) => {
    if (isAppError(error, "not_found:thread")) notFound();
    throw error;
  });
  // The active run is read before the log, so a run that ends in between is replayed whole by
  // the stream rather than missed.
  const active = await getActiveRunByThread({ db, threadId });
  const [threads, events, allowances] = await Promise.all([
    listThreadsWithStatusByOwner({ db, userId: user.id }),
    loadThreadEvents({ db, threadId }),
    listThreadToolAllowances({ db, threadId }),
  ]);
  const messages = await buildThreadMessages(events);
  return (
    <div className="chat-layout">
      <ThreadSidebar threads={threads} currentId={thread.id} />
      <section className="stack" aria-labelledby="thread-title">
        <h1 id="thread-title" className="page-title">
          {thread.title || "New chat"}
        </h1>
        <ThreadChat
          key={thread.id}
          threadId={thread.id}
          viewerId={user.id}
          initialMessages={messages}
          activeRunId={active?.id ?? null}
          allowances={allowances.map((allowance) => ({
            toolName: allowance.toolName,
            createdAt: allowance.createdAt.toISOString(),
          }))}
        />
      </section>
    </div>
  );
}
