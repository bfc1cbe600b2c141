import Link from "next/link";
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
 * waiting for the viewer stands out; the list follows changes without a reload.
 */
export function ThreadSidebar({ threads, currentId }: { threads: ThreadListItem[]; currentId?: string }) {
  return (
    <nav aria-label="Chats" className="stack">
      <ThreadSidebarLive version={threadsVersionOf(threads)} />
      <form action={createThreadAction}>
        <button type="submit" className="button button-block">
          New chat
        </button>
      </form>
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
    </nav>
  );
}
