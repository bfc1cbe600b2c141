import Link from "next/link";
import { forbidden, notFound } from "next/navigation";
import { getAppServices } from "@/app/_lib/app-services";
import { ExpiryCountdown } from "@/components/chat/expiry-countdown";
import { whoMustAct } from "@/components/request-form/who-acts";
import { requirePageUser } from "@/lib/auth/guards";
import { getUserById } from "@/lib/db/users";
import { isAppError } from "@/lib/errors";
import { toRequestView } from "../_lib/to-request-view";
import { RequestAnswer } from "./request-answer";
import "@/components/chat/chat.css";
import "@/components/request-form/request-form.css";

export const metadata = { title: "Request · toolnexus" };

export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/requests/${encodeURIComponent(id)}`);
  const { db, engine } = await getAppServices();
  const stored = await engine.readRequest({ requestId: id, actor: user }).catch((error: unknown) => {
    if (isAppError(error, "not_found:request")) notFound();
    if (isAppError(error, "forbidden:request")) forbidden();
    throw error;
  });
  const actorId = stored.answer?.actorId;
  const answerer = actorId ? await getUserById({ db, userId: actorId }) : null;
  const view = toRequestView(stored, answerer ? (answerer.name ?? answerer.email ?? undefined) : undefined);
  const canAnswer = engine.mayAnswer({ actor: user, request: stored });
  const { request } = stored;
  // A request made through the HTTP API has no run and no chat to go back to (ADR 0034).
  const fromApi = stored.runId === null;
  const acting =
    fromApi && view.status === "open" && view.audience === "owner"
      ? "Its owner must act"
      : whoMustAct(view, "anyone");

  return (
    <article className="card stack" aria-labelledby="request-title">
      <p className="muted">
        <span className="badge">{request.kind}</span>{" "}
        {fromApi ? (
          "made through the API"
        ) : (
          <>
            from the <code>{stored.toolName}</code> tool
          </>
        )}
        {acting && <> · {acting.toLowerCase()}</>}
        {stored.status === "open" && request.expiresAt && (
          <>
            {" "}
            · <ExpiryCountdown expiresAt={request.expiresAt} />
          </>
        )}
      </p>
      <h1 id="request-title" className="page-title">
        {request.prompt}
      </h1>
      {!fromApi && (
        <details>
          <summary>Tool arguments</summary>
          <pre className="tn-json">{JSON.stringify(stored.args, null, 2)}</pre>
        </details>
      )}
      <RequestAnswer requestId={stored.id} view={view} canAnswer={canAnswer} />
      <p>
        {stored.ownerId === user.id && !fromApi ? (
          <Link href={`/chat/${stored.threadId}`}>Back to the chat</Link>
        ) : (
          <Link href="/inbox">Back to the inbox</Link>
        )}
      </p>
    </article>
  );
}
