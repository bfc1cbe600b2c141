"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { DecisionCard } from "@/components/decision-card/decision-card";
import { EscalationSteps, type ReadEscalation } from "@/components/request-form/escalation-steps";
import { RequestForm } from "@/components/request-form/request-form";
import type { SubmitAnswer } from "@/components/request-form/request-view";
import { type ReadTally, VoteTallyView } from "@/components/request-form/vote-tally-view";
import { whoMustAct } from "@/components/request-form/who-acts";
import type { RequestCardData } from "@/lib/domain/chat-message";
import type { ActionResult } from "@/lib/errors";
import { requestCardView } from "./request-card-view";

interface PendingCardProps {
  card: RequestCardData;
  viewerId: string;
  submit: SubmitAnswer;
  readTally?: ReadTally | undefined;
  readEscalation?: ReadEscalation | undefined;
  readAnswer?: ReadAnswerData | undefined;
}

export type ReadAnswerData = (input: {
  requestId: string;
}) => Promise<ActionResult<Record<string, unknown> | null>>;

/**
 * What a closed request was answered with, read once it closes: the chat's events say only the
 * outcome, and the card says the answer in words as the request page does.
 */
function useAnswerData(requestId: string, closed: boolean, read: ReadAnswerData | undefined) {
  const [data, setData] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    if (!closed || !read) return;
    let live = true;
    read({ requestId }).then(
      (result) => {
        if (live && result.ok) setData(result.value);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [requestId, closed, read]);
  return data;
}

/**
 * A parked request inside the chat, as the decision card every page uses. Requests addressed to
 * the chat's owner are answered right here; approvals wait for a reviewer in the inbox. The card
 * is rewritten in place when anyone answers, so it never needs a reload to show the outcome.
 */
export function PendingCard({
  card,
  viewerId,
  submit,
  readTally,
  readEscalation,
  readAnswer,
}: PendingCardProps) {
  const cardView = requestCardView(card, viewerId);
  const answerData = useAnswerData(card.view.id, cardView.status !== "open", readAnswer);
  const view =
    answerData && cardView.status !== "open"
      ? { ...cardView, answer: { ...cardView.answer, data: answerData } }
      : cardView;
  const { request, audience } = card.view;
  const open = view.status === "open";
  // The card says once its steps were first read (`data-steps-read`): a card without fired steps
  // shows nothing of them, and a step shown after that came with a later read.
  const [stepsRead, setStepsRead] = useState(false);
  const markStepsRead = useCallback(() => setStepsRead(true), []);
  return (
    <DecisionCard
      view={view}
      level={3}
      titleId={`chat-request-${card.view.id}`}
      label={`Request: ${request.kind}`}
      className={`pending-card pending-card-${view.status}`}
      data={{ "data-request-id": card.view.id, ...(stepsRead ? { "data-steps-read": "" } : {}) }}
      origin={
        card.view.runId === null ? null : (
          <>
            from the <code>{card.view.toolName}</code> tool
          </>
        )
      }
      who={whoMustAct(view, "owner")}
      aside={
        open &&
        audience !== "owner" && (
          <>
            {/* A gate's approval may be addressed to a group: its votes show once one is read. */}
            {request.kind === "approval" && (
              <VoteTallyView
                tally={null}
                requestId={card.view.id}
                {...(readTally ? { read: readTally } : {})}
                brief
              />
            )}
            {readEscalation && (
              <EscalationSteps
                steps={[]}
                read={{ requestId: card.view.id, with: readEscalation }}
                onRead={markStepsRead}
              />
            )}
          </>
        )
      }
      answer={<RequestForm view={view} submit={submit} canAnswer={audience === "owner"} />}
      footer={
        <Link href={`/requests/${card.view.id}`} className="pending-card-link">
          Open request page
        </Link>
      }
    />
  );
}
