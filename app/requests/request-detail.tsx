import { ExpiryCountdown } from "@/components/chat/expiry-countdown";
import { RequestAge } from "@/components/inbox/request-age";
import { EscalationSteps } from "@/components/request-form/escalation-steps";
import { VoteTallyView } from "@/components/request-form/vote-tally-view";
import { whoMustAct } from "@/components/request-form/who-acts";
import type { ArgumentChange } from "@/lib/domain/approval-edit";
import type { ConversationLine } from "@/lib/domain/request-view";
import type { RequestDetail } from "./_lib/load-request-detail";
import { RequestAnswer } from "./[id]/request-answer";
import { readVoteTallyAction } from "./actions";
import { TakeRequestControl } from "./take-request-control";

function show(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}

function ArgumentChanges({ changes }: { changes: ArgumentChange[] }) {
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
            <th scope="row">{change.key}</th>
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

function Conversation({ lines }: { lines: ConversationLine[] }) {
  return (
    <section className="tn-conversation" aria-label="The chat that led to this request">
      <h3 className="tn-conversation-title">The chat so far</h3>
      <ol>
        {lines.map((line, index) => (
          // The lines never reorder: the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, read-only transcript
          <li key={index} className={`tn-line tn-line-${line.role}`}>
            <span className="tn-line-who">{line.role === "user" ? "User" : "Agent"}:</span> {line.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * One request with everything needed to decide it: what the tool asks and with which
 * arguments, who asked and when, the time left, the chat that led to it, and the form. The
 * request page shows it alone (`level` 1), the inbox beside its list (`level` 2).
 */
export function RequestDetailView({ detail, level }: { detail: RequestDetail; level: 1 | 2 }) {
  const { view } = detail;
  const { request } = view;
  const Heading = level === 1 ? "h1" : "h2";
  const titleId = `request-title-${detail.id}`;
  const acting =
    detail.fromApi && view.status === "open" && view.audience === "owner"
      ? "Its owner must act"
      : whoMustAct(view, "anyone");
  return (
    <article className="card stack request-detail" aria-labelledby={titleId}>
      <p className="muted">
        <span className="badge">{request.kind}</span>{" "}
        {detail.fromApi ? (
          "made through the API"
        ) : (
          <>
            from the <code>{view.toolName}</code> tool
          </>
        )}
        {acting && <> · {acting.toLowerCase()}</>}
        {view.status === "open" && request.expiresAt && (
          <>
            {" "}
            · <ExpiryCountdown expiresAt={request.expiresAt} />
          </>
        )}
      </p>
      <Heading id={titleId} className="page-title">
        {request.prompt}
      </Heading>
      <p className="muted">
        Asked by {detail.askedBy} · <RequestAge createdAt={view.createdAt} />
      </p>
      <EscalationSteps steps={detail.escalation} />
      {detail.tally && (
        <VoteTallyView tally={detail.tally} requestId={detail.id} read={readVoteTallyAction} />
      )}
      {detail.take.allowed && <TakeRequestControl requestId={detail.id} take={detail.take.current} />}
      {!detail.fromApi && (
        <details>
          <summary>Tool arguments</summary>
          <pre className="tn-json">{JSON.stringify(view.args, null, 2)}</pre>
        </details>
      )}
      {detail.changes.length > 0 && <ArgumentChanges changes={detail.changes} />}
      {detail.conversation.length > 0 && <Conversation lines={detail.conversation} />}
      <RequestAnswer requestId={detail.id} view={view} canAnswer={detail.canAnswer} />
    </article>
  );
}
