import Link from "next/link";
import type { ThreadSummary } from "@/lib/db/chat-threads";
import { createThreadAction } from "../actions";

/** The viewer's chats, newest activity first, with the "New chat" button on top. */
export function ThreadSidebar({ threads, currentId }: { threads: ThreadSummary[]; currentId?: string }) {
  return (
    <nav aria-label="Chats" className="stack">
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
                {thread.title || "Untitled chat"}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
