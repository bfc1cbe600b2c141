import { OutcomeBadge } from "@/components/outcome-badge";
import { outcomeOf } from "@/lib/domain/outcome";
import type { AnswerRecord, RequestView } from "@/lib/domain/request-view";

type ClosedStatus = Exclude<RequestView["status"], "open">;

/** Read-only view of a request that can no longer be answered: who answered, when, and how. */
export function AnsweredRequest({
  kind,
  status,
  answer,
}: {
  kind: string;
  status: ClosedStatus;
  answer: AnswerRecord;
}) {
  // An expiry or a cancel is recorded as an answer whose reason may be missing on old rows:
  // the request's status says which it was.
  const outcome = outcomeOf(kind, status === "answered" ? answer : { ok: false, reason: status });
  const when = new Date(answer.answeredAt);
  const reasonText = typeof answer.data?.reason === "string" ? answer.data.reason : undefined;
  const shownData = answer.ok && answer.data && Object.keys(answer.data).length > 0 ? answer.data : undefined;
  return (
    <section className="tn-answered" aria-label="Answer">
      <OutcomeBadge outcome={outcome} as="p" />
      <p>
        {answer.answeredBy ? `By ${answer.answeredBy}` : "By the system"} on{" "}
        <time dateTime={answer.answeredAt}>{when.toUTCString()}</time>
      </p>
      {answer.runStoppedFirst && (
        <p role="note">The run was stopped before the call this answer was for could run, so it never ran.</p>
      )}
      {reasonText && <p>Reason: {reasonText}</p>}
      {shownData && <pre className="tn-json">{JSON.stringify(shownData, null, 2)}</pre>}
    </section>
  );
}
