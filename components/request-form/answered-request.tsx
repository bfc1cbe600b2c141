import { Fragment } from "react";
import { LocalTime } from "@/components/local-time";
import { OutcomeBadge } from "@/components/outcome-badge";
import { answerLines } from "@/lib/domain/answer-words";
import { outcomeOf } from "@/lib/domain/outcome";
import type { AnswerRecord, RequestView } from "@/lib/domain/request-view";

type ClosedStatus = Exclude<RequestView["status"], "open">;

/**
 * Read-only view of a request that can no longer be answered: who answered, when, and how, with
 * what was entered echoed in words, labelled as the form labelled it (`schema`).
 */
export function AnsweredRequest({
  kind,
  status,
  answer,
  schema,
}: {
  kind: string;
  status: ClosedStatus;
  answer: AnswerRecord;
  schema?: unknown;
}) {
  // An expiry or a cancel is recorded as an answer whose reason may be missing on old rows:
  // the request's status says which it was.
  const outcome = outcomeOf(kind, status === "answered" ? answer : { ok: false, reason: status });
  const reasonText = typeof answer.data?.reason === "string" ? answer.data.reason : undefined;
  const lines = answer.ok && answer.data ? answerLines(answer.data, schema) : [];
  return (
    <section className="tn-answered" aria-label="Answer">
      <OutcomeBadge outcome={outcome} as="p" />
      <p>
        {answer.answeredBy ? `By ${answer.answeredBy}` : "By the system"} on{" "}
        <LocalTime dateTime={answer.answeredAt} />
      </p>
      {answer.runStoppedFirst && (
        <p role="note">The run was stopped before the call this answer was for could run, so it never ran.</p>
      )}
      {reasonText && <p>Reason: {reasonText}</p>}
      {lines.length > 0 && (
        <dl className="tn-answer-lines" aria-label="What was answered">
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, read-only list; labels may repeat
            <Fragment key={index}>
              <dt>{line.label}</dt>
              <dd>{line.text}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </section>
  );
}
