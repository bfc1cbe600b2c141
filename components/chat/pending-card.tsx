"use client";

import Link from "next/link";
import { EscalationSteps, type ReadEscalation } from "@/components/request-form/escalation-steps";
import { RequestForm } from "@/components/request-form/request-form";
import type { SubmitAnswer } from "@/components/request-form/request-view";
import { type ReadTally, VoteTallyView } from "@/components/request-form/vote-tally-view";
import { whoMustAct } from "@/components/request-form/who-acts";
import type { RequestCardData } from "@/lib/domain/chat-message";
import { ExpiryCountdown } from "./expiry-countdown";
import { requestCardView } from "./request-card-view";

interface PendingCardProps {
  card: RequestCardData;
  viewerId: string;
  submit: SubmitAnswer;
  readTally?: ReadTally | undefined;
  readEscalation?: ReadEscalation | undefined;
}

/**
 * A parked request inside the chat. Requests addressed to the chat's owner are answered right
 * here; approvals wait for a reviewer in the inbox. The card is rewritten in place when anyone
 * answers, so it never needs a reload to show the outcome.
 */
export function PendingCard({ card, viewerId, submit, readTally, readEscalation }: PendingCardProps) {
  const view = requestCardView(card, viewerId);
  const { request, audience } = card.view;
  const open = view.status === "open";
  const acting = whoMustAct(view, "owner");
  return (
    <article
      className={`pending-card pending-card-${view.status}`}
      aria-label={`Request: ${request.kind}`}
      data-request-id={card.view.id}
    >
      <header className="pending-card-header">
        <span className="badge">{request.kind}</span>
        {acting && <span className="muted">{acting}</span>}
        {open && request.expiresAt && <ExpiryCountdown expiresAt={request.expiresAt} />}
      </header>
      <p className="pending-card-prompt">{request.prompt}</p>
      {/* A gate's approval may be addressed to a group: its votes show once one is read. */}
      {open && audience !== "owner" && request.kind === "approval" && (
        <VoteTallyView
          tally={null}
          requestId={card.view.id}
          {...(readTally ? { read: readTally } : {})}
          brief
        />
      )}
      {open && audience !== "owner" && readEscalation && (
        <EscalationSteps steps={[]} read={{ requestId: card.view.id, with: readEscalation }} />
      )}
      <RequestForm view={view} submit={submit} canAnswer={audience === "owner"} />
      <Link href={`/requests/${card.view.id}`} className="pending-card-link">
        Open request page
      </Link>
    </article>
  );
}
