import type { ReactNode } from "react";
import "./decision-card.css";
import { ExpiryCountdown } from "@/components/chat/expiry-countdown";
import { RequestAge } from "@/components/inbox/request-age";
import { atExpiry } from "@/components/request-form/who-acts";
import { summaryOf } from "@/lib/domain/request-summary";
import type { ConversationLine, RequestView } from "@/lib/domain/request-view";
import { DecisionHeading } from "./decision-heading";

function Conversation({ lines }: { lines: ConversationLine[] }) {
  return (
    <details className="decision-fold">
      <summary>The chat so far</summary>
      <section className="tn-conversation" aria-label="The chat that led to this request">
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
    </details>
  );
}

export interface DecisionCardProps {
  view: RequestView;
  /** The heading's level: 1 alone on its page, 2 beside the inbox's list, 3 inside a chat. */
  level: 1 | 2 | 3;
  /** The heading's id; the card is labelled by it unless `label` names it otherwise. */
  titleId: string;
  label?: string;
  className?: string;
  /** Where the request came from: "from the deploy tool", "made through the API". */
  origin: ReactNode;
  /** Who asked, for readers other than the asker ("Alice's chat"); the chat leaves it out. */
  askedBy?: string;
  /** Who must act while it is open (`whoMustAct`); null once nobody must. */
  who: string | null;
  /** The form, the held decision, or what was answered. */
  answer: ReactNode;
  /** Beside the decision: a group's tally, "I'm on it", the changes a reviewer made. */
  aside?: ReactNode;
  conversation?: ConversationLine[];
  /** The raw arguments, folded under "Technical details"; false where there are none (API). */
  technical?: boolean;
  footer?: ReactNode;
  data?: Record<`data-${string}`, string>;
}

/**
 * One request as a decision: what approving does in one sentence, who asked and who must act,
 * what happens at expiry, then the decision itself, and the context folded below. The inbox's
 * pane, the request page and the chat's card all render it, so its design is written once
 * (ADR 0087). It renders what it is given; the callers bind the form to their answer path.
 */
export function DecisionCard(props: DecisionCardProps) {
  const { view, level, titleId, label, who } = props;
  const { request } = view;
  const open = view.status === "open";
  const { fromTemplate } = summaryOf(request, view.args);
  return (
    <article
      className={`decision-card decision-card-${view.status} ${props.className ?? ""}`}
      {...(label ? { "aria-label": label } : { "aria-labelledby": titleId })}
      {...props.data}
    >
      <header className="decision-head">
        <p className="decision-kicker muted">
          <span className="badge">{request.kind}</span> {props.origin}
        </p>
        <DecisionHeading view={view} level={level} id={titleId} />
        {/* A tool's sentence, or the outcome, replaces the question as the heading; the question
            stays, quoted. */}
        {(fromTemplate || !open) && (
          <p className="decision-prompt muted">
            <q>{request.prompt}</q>
          </p>
        )}
        {props.askedBy && (
          <p className="muted decision-asked">
            Asked by {props.askedBy} · <RequestAge createdAt={view.createdAt} />
          </p>
        )}
        {open && (who || request.expiresAt) && (
          <p className="decision-who">
            {who && <strong>{who}.</strong>}
            {request.expiresAt && (
              <>
                {" "}
                <ExpiryCountdown expiresAt={request.expiresAt} />. {atExpiry(request.kind)}
              </>
            )}
          </p>
        )}
      </header>
      {props.aside}
      <div className="decision-body">{props.answer}</div>
      {props.conversation && props.conversation.length > 0 && <Conversation lines={props.conversation} />}
      {props.technical && (
        <details className="decision-fold">
          <summary>Technical details</summary>
          <p className="muted">
            The <code>{view.toolName}</code> tool's arguments as it asked:
          </p>
          <pre className="tn-json">{JSON.stringify(view.args, null, 2)}</pre>
        </details>
      )}
      {props.footer}
    </article>
  );
}
