import Link from "next/link";
import { notFound } from "next/navigation";
import { getAppServices } from "@/app/_lib/app-services";
import { requirePageUser } from "@/lib/auth/guards";
import { isAppError } from "@/lib/errors";
import { loadRequestDetail } from "../_lib/load-request-detail";
import { RequestDetailView } from "../request-detail";
import "@/components/chat/chat.css";
import "@/components/request-form/request-form.css";

export const metadata = { title: "Request · toolnexus" };

export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/requests/${encodeURIComponent(id)}`);
  const { db, engine } = await getAppServices();
  // Someone else's request reads as not found, like an unknown id: nothing tells them it exists.
  const detail = await loadRequestDetail({ actor: user, requestId: id }, { db, engine }).catch(
    (error: unknown) => {
      if (isAppError(error, "not_found:request")) notFound();
      throw error;
    },
  );
  return (
    <div className="stack">
      <RequestDetailView detail={detail} level={1} />
      <p>
        {/* A request made through the HTTP API has no chat to go back to (ADR 0034). */}
        {detail.mine && !detail.fromApi ? (
          <Link href={`/chat/${detail.threadId}`}>Back to the chat</Link>
        ) : (
          <Link href="/inbox">Back to the inbox</Link>
        )}
      </p>
    </div>
  );
}
