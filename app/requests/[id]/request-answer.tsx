"use client";

import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { useDecisions } from "@/components/decisions/decisions-context";
import { HeldAnswer } from "@/components/decisions/held-answer";
import { RequestForm } from "@/components/request-form/request-form";
import type { SubmitAnswer } from "@/components/request-form/request-view";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import type { RequestView } from "@/lib/domain/request-view";
import type { AppErrorCode } from "@/lib/errors";
import { answerRequestAction } from "../actions";

// Refusals that mean the request closed while this page showed it open: its form is stale.
const CLOSED: ReadonlySet<AppErrorCode> = new Set([
  "conflict:answer",
  "conflict:request_closed",
  "conflict:run_stopped",
  "expired:request",
  "conflict:vote_late",
]);

/**
 * The request's form, bound to the answer action; the page re-renders read-only once sent. A
 * page opened before someone else answered learns so from the refusal: it re-renders into the
 * answered view (who answered, when, how) and keeps the refusal's message above it.
 */
export function RequestAnswer({
  requestId,
  view,
  canAnswer,
}: {
  requestId: string;
  view: RequestView;
  canAnswer: boolean;
}) {
  const router = useRouter();
  const decisions = useDecisions();
  // An approval's decision is held a few seconds so it can be undone (ADR 0080); other answers,
  // and any page outside the provider, answer at once.
  const holds =
    decisions !== null && requestKindSpec(view.request.kind).form === "approval" && view.audience !== "group";
  const [closedNotice, setClosedNotice] = useState<{ requestId: string; message: string } | null>(null);
  const submit = useCallback<SubmitAnswer>(
    async (answer) => {
      const result =
        holds && decisions
          ? await decisions.holdOne(requestId, answer)
          : await answerRequestAction({ requestId, answer });
      if (!result.ok && CLOSED.has(result.error.code)) {
        setClosedNotice({ requestId, message: result.error.message });
        router.refresh();
      }
      return result;
    },
    [requestId, router, holds, decisions],
  );
  const onSent = useCallback(() => router.refresh(), [router]);
  const notice =
    closedNotice?.requestId === requestId && view.status !== "open" ? closedNotice.message : null;
  const held = view.status === "open" ? decisions?.heldFor(requestId) : undefined;
  if (held) return <HeldAnswer entry={held} onUndo={() => void decisions?.undo(held.key)} />;
  return (
    <>
      {notice && (
        <p role="alert" className="alert alert-error">
          {notice}
        </p>
      )}
      <RequestForm view={view} submit={submit} canAnswer={canAnswer} onSent={onSent} />
    </>
  );
}
