import { DecisionCard } from "@/components/decision-card/decision-card";
import { EscalationSteps } from "@/components/request-form/escalation-steps";
import { VoteTallyView } from "@/components/request-form/vote-tally-view";
import { whoMustAct } from "@/components/request-form/who-acts";
import { fieldLabel, wordsOfValue } from "@/lib/domain/answer-words";
import type { ArgumentChange } from "@/lib/domain/approval-edit";
import type { RequestDetail } from "./_lib/load-request-detail";
import { RequestAnswer } from "./[id]/request-answer";
import { readVoteTallyAction } from "./actions";
import { TakeRequestControl } from "./take-request-control";

function show(value: unknown): string {
  return value === undefined || value === "" ? "(none)" : wordsOfValue(value);
}

/** What the reviewer changed, each field by its form's label and its values in words. */
function ArgumentChanges({ changes, schema }: { changes: ArgumentChange[]; schema: unknown }) {
  return (
    <table className="tn-diff">
      <caption>Arguments changed by the reviewer</caption>
      <thead>
        <tr>
          <th scope="col">Argument</th>
          <th scope="col">Asked for</th>
          <th scope="col">Approved</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.key}>
            <th scope="row">{fieldLabel(change.key, schema)}</th>
            <td>
              <del>{show(change.before)}</del>
            </td>
            <td>
              <ins>{show(change.after)}</ins>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One request with everything needed to decide it, as the decision card lays it out: the
 * request page shows it alone (`level` 1), the inbox beside its list (`level` 2).
 */
export function RequestDetailView({ detail, level }: { detail: RequestDetail; level: 1 | 2 }) {
  const { view } = detail;
  const who =
    detail.fromApi && view.status === "open" && view.audience === "owner"
      ? "Its owner must act"
      : whoMustAct(view, "anyone", detail.tally);
  return (
    <DecisionCard
      view={view}
      level={level}
      titleId={`request-title-${detail.id}`}
      className="card request-detail"
      origin={
        detail.fromApi ? (
          "made through the API"
        ) : (
          <>
            from the <code>{view.toolName}</code> tool
          </>
        )
      }
      askedBy={detail.askedBy}
      who={who}
      aside={
        <>
          <EscalationSteps steps={detail.escalation} />
          {detail.tally && (
            <VoteTallyView tally={detail.tally} requestId={detail.id} read={readVoteTallyAction} />
          )}
          {detail.take.allowed && <TakeRequestControl requestId={detail.id} take={detail.take.current} />}
        </>
      }
      answer={
        <>
          <RequestAnswer requestId={detail.id} view={view} canAnswer={detail.canAnswer} />
          {detail.changes.length > 0 && (
            <ArgumentChanges changes={detail.changes} schema={view.request.data?.schema} />
          )}
        </>
      }
      conversation={detail.conversation}
      technical={!detail.fromApi}
    />
  );
}
