"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { RequestForm } from "@/components/request-form/request-form";
import type { SubmitAnswer } from "@/components/request-form/request-view";
import type { RequestView } from "@/lib/domain/request-view";
import { answerRequestAction } from "../actions";

/** The request page's form, bound to the answer action; the page re-renders read-only once sent. */
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
  const submit = useCallback<SubmitAnswer>(
    (answer) => answerRequestAction({ requestId, answer }),
    [requestId],
  );
  const onSent = useCallback(() => router.refresh(), [router]);
  return <RequestForm view={view} submit={submit} canAnswer={canAnswer} onSent={onSent} />;
}
