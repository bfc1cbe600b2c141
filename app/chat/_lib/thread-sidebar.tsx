import Link from "next/link";
import { Disclosure } from "@/components/disclosure";
import { threadsVersionOf } from "@/lib/db/threads-version";
import type { ThreadListItem, ThreadStatus } from "@/lib/db/threads-with-status";
import { createThreadAction } from "../actions";
import { ThreadSidebarLive } from "./thread-sidebar-live";

const STATUS_LABELS: Record<ThreadStatus, string> = {
  working: "Working",
  needs_you: "Needs you",
  waiting_for_reviewer: "Waiting for a reviewer",
};

/**
 * The viewer's chats, newest activity first, with the "New chat" button on top. A chat whose
 * latest run has not ended says where it stands, as part of its link's name, so that the one
 * waiting for the viewer stands out; the list follows changes without a reload. On a phone the
 * list folds behind a button, so a chat's conversation and message box come first; on the chat
 * index, where the list is the page, it starts unfolded.
 */
export function ThreadSidebar({ threads, currentId }: { threads: ThreadListItem[]; currentId?: string }) {
  // A folded list must still tell its owner that a chat waits for them.
  const needYou = threads.filter((thread) => thread.status === "needs_you").length;
  return (
    <nav aria-label="Chats" className="stack chat-sidebar">
      <ThreadSidebarLive version={threadsVersionOf(threads)} />
      <form action={createThreadAction}>
        <button type="submit" className="button button-block">
          New chat
        </button>
      </form>
      <Disclosure
        label={needYou > 0 ? `Chats (${threads.length}, ${needYou} need you)` : `Chats (${threads.length})`}
        initiallyOpen={currentId === undefined}
        className="chat-list"
        toggleClassName="chat-list-toggle"
      >
        {threads.length === 0 ? (
          <p className="muted">No chats yet.</p>
        ) : (
          <ul className="thread-list">
            {threads.map((thread) => (
              <li key={thread.id}>
                <Link href={`/chat/${thread.id}`} aria-current={thread.id === currentId ? "page" : undefined}>
                  <span className="thread-list-title">{thread.title || "Untitled chat"}</span>
                  {thread.status ? (
                    <span className={`badge thread-status thread-status-${thread.status}`}>
                      {STATUS_LABELS[thread.status]}
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Disclosure>
    </nav>
  );
}
