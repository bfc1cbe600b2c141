import { getAppServices } from "@/app/_lib/app-services";
import { requirePageUser } from "@/lib/auth/guards";
import { listThreadsWithStatusByOwner } from "@/lib/db/threads-with-status";
import { ThreadSidebar } from "./_lib/thread-sidebar";

export const metadata = { title: "Chats · toolnexus" };

export default async function ChatIndexPage() {
  const user = await requirePageUser("/chat");
  const { db } = await getAppServices();
  const threads = await listThreadsWithStatusByOwner({ db, userId: user.id });
  return (
    <div className="chat-layout">
      <ThreadSidebar threads={threads} />
      <section className="stack">
        <h1 className="page-title">Chats</h1>
        <p>
          Start a new chat and ask the agent for something. When a tool needs a person — an approval, a form,
          an answer — the run pauses and picks up again once someone answers.
        </p>
      </section>
    </div>
  );
}
