import { Fragment } from "react";
import { RequestAge } from "@/components/inbox/request-age";
import { OUTCOME_LABEL, outcomeOf } from "@/lib/domain/outcome";
import { closedSentence, type SummaryPart, summaryOf } from "@/lib/domain/request-summary";
import type { RequestView } from "@/lib/domain/request-view";

function Sentence({ parts }: { parts: SummaryPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        // The parts of one sentence never reorder: the index is their identity.
        part.value ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed sentence
          <strong key={index}>{part.text}</strong>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed sentence
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * The card's heading: while open, what approving will do ("Deploy web **v1.4** to
 * **production**"); once closed, what happened to it, with the arguments as approved ("Approved:
 * Deploy web **v1.4.1** to production — by you, just now").
 */
export function DecisionHeading({ view, level, id }: { view: RequestView; level: 1 | 2 | 3; id: string }) {
  const Tag = level === 1 ? "h1" : level === 2 ? "h2" : "h3";
  const { request } = view;
  if (view.status === "open") {
    return (
      <Tag id={id} className="decision-title">
        <Sentence parts={summaryOf(request, view.args).parts} />
      </Tag>
    );
  }
  const { answer } = view;
  const outcome = outcomeOf(
    request.kind,
    view.status === "answered" ? answer : { ok: false, reason: view.status },
  );
  const sentence = closedSentence(view);
  return (
    <Tag id={id} className="decision-title">
      {OUTCOME_LABEL[outcome]}
      {sentence && (
        <>
          : <Sentence parts={sentence} />
        </>
      )}
      <span className="decision-title-by">
        {outcome === "expired" ? (
          " — nobody decided in time"
        ) : (
          <>
            {" "}
            — by {answer.answeredBy ?? "the system"}, <RequestAge createdAt={answer.answeredAt} />
          </>
        )}
      </span>
    </Tag>
  );
}
