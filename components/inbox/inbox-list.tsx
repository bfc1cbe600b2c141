"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { startTransition, useActionState, useId, useState } from "react";
import { ExpiryCountdown } from "@/components/chat/expiry-countdown";
import { OutcomeBadge } from "@/components/outcome-badge";
import { ShortcutHint } from "@/components/shortcut-hint";
import { DECLINE_REASON_MAX_CHARS } from "@/lib/domain/answer-limits";
import type { BulkOutcome } from "@/lib/domain/inbox";
import { requestKindSpec } from "@/lib/domain/request-kinds";
import { unsentResult } from "@/lib/errors";
import { EscalationSteps } from "../request-form/escalation-steps";
import { VoteTallyView } from "../request-form/vote-tally-view";
import type { InboxItem, SubmitBulk } from "./inbox-item";
import { RequestAge } from "./request-age";
import { TakenNote } from "./taken-note";

interface InboxListProps {
  items: InboxItem[];
  /** Reviewers may approve or decline several open approvals at once. */
  canBulk: boolean;
  submitBulk: SubmitBulk;
  /** The request shown beside the list, marked as the current one. */
  selectedId?: string;
  /** The default view (open requests, no filter): an empty list there is inbox zero. */
  defaultView?: boolean;
}

interface BulkReport {
  outcomes: Array<BulkOutcome & { prompt: string }> | null;
  failure: string | null;
}

function selectable(item: InboxItem, canBulk: boolean): boolean {
  return canBulk && requestKindSpec(item.kind).bulkApprovable && item.status === "open";
}

export function InboxList({ items, canBulk, submitBulk, selectedId, defaultView = false }: InboxListProps) {
  const router = useRouter();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState("");
  const reasonId = useId();

  // The page re-renders when the inbox changes live. A selected request that left the list,
  // or that someone else answered meanwhile, leaves the selection with it; the rest stays.
  const [listed, setListed] = useState(items);
  if (listed !== items) {
    setListed(items);
    const still = new Set(items.filter((item) => selectable(item, canBulk)).map((item) => item.id));
    if ([...selected].some((id) => !still.has(id)))
      setSelected(new Set([...selected].filter((id) => still.has(id))));
  }

  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  // The last answered batch stays listed until the next one is; a refusal shows until a retry.
  const [report, dispatch, busy] = useActionState(
    async (previous: BulkReport, decision: "approve" | "decline"): Promise<BulkReport> => {
      const text = reason.trim();
      const result = await submitBulk({
        requestIds: [...selected],
        decision: decision === "approve" ? { decision } : { decision, ...(text ? { reason: text } : {}) },
      }).catch(() => unsentResult("The answers could not be sent. Please try again."));
      if (!result.ok) return { outcomes: previous.outcomes, failure: result.error.message };
      // Answered rows leave the list on refresh, so the report keeps their prompts itself.
      const promptOf = new Map(items.map((item) => [item.id, item.prompt]));
      setSelected(new Set());
      router.refresh();
      return {
        outcomes: result.value.map((outcome) => ({
          ...outcome,
          prompt: promptOf.get(outcome.id) ?? outcome.id,
        })),
        failure: null,
      };
    },
    { outcomes: null, failure: null },
  );
  const { outcomes } = report;
  const failure = busy ? null : report.failure;

  const decide = (decision: "approve" | "decline") => {
    if (selected.size === 0 || busy) return;
    startTransition(() => dispatch(decision));
  };

  // A batch that emptied the list still says how each answer went.
  if (items.length === 0)
    return (
      <div className="inbox">
        {defaultView ? (
          <div className="inbox-zero">
            <p className="inbox-zero-title">All caught up</p>
            <p className="muted">Nothing is waiting for you. New requests appear here as they arrive.</p>
          </div>
        ) : (
          <p className="muted">No requests match these filters.</p>
        )}
        <BulkReportView failure={failure} outcomes={outcomes} />
      </div>
    );

  const anySelectable = items.some((item) => selectable(item, canBulk));
  // A kind is named only where the list mixes kinds: a list of approvals need not say so per row.
  const mixedKinds = new Set(items.map((item) => item.kind)).size > 1;
  return (
    <div className="inbox">
      <ul className="inbox-list" aria-label="Requests">
        {items.map((item) => (
          <li
            key={item.id}
            className={`inbox-row${item.id === selectedId ? " inbox-row-selected" : ""}`}
            data-request-id={item.id}
          >
            {anySelectable && (
              // The label is the checkbox's tap area: a finger-sized square around the box.
              <label className="inbox-check">
                <input
                  type="checkbox"
                  aria-label={`Select: ${item.prompt}`}
                  disabled={!selectable(item, canBulk) || busy}
                  checked={selected.has(item.id)}
                  onChange={(event) => toggle(item.id, event.target.checked)}
                />
              </label>
            )}
            <div className="inbox-row-main">
              <Link
                href={item.href}
                className="inbox-prompt"
                aria-current={item.id === selectedId ? "true" : undefined}
                scroll={false}
              >
                {item.prompt}
              </Link>
              <RowFacts item={item} showKind={mixedKinds} />
              {item.tally && <VoteTallyView tally={item.tally} requestId={item.id} brief />}
              <EscalationSteps steps={item.escalation} />
            </div>
          </li>
        ))}
      </ul>
      {anySelectable && (
        <section
          className={`inbox-bulk${selected.size > 0 ? " inbox-bulk-active" : ""}`}
          aria-label="Answer selected approvals"
        >
          <p className="muted">{selected.size} selected</p>
          <label htmlFor={reasonId}>Reason for declining (optional)</label>
          <input
            id={reasonId}
            type="text"
            value={reason}
            maxLength={DECLINE_REASON_MAX_CHARS}
            aria-describedby={`${reasonId}-limit`}
            onChange={(event) => setReason(event.target.value)}
          />
          <p id={`${reasonId}-limit`} className="muted field-hint">
            Up to {DECLINE_REASON_MAX_CHARS.toLocaleString("en")} characters.
          </p>
          <div className="inbox-bulk-buttons">
            <button
              type="button"
              className="button"
              disabled={busy || selected.size === 0}
              data-shortcut="approve-selected"
              onClick={() => decide("approve")}
            >
              Approve selected
              <ShortcutHint keys="Shift+A" />
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={busy || selected.size === 0}
              onClick={() => decide("decline")}
            >
              Decline selected
            </button>
          </div>
        </section>
      )}
      <BulkReportView failure={failure} outcomes={outcomes} />
    </div>
  );
}

/**
 * What tells this row from the next: the tool, its headline value, who asked, the time left (or
 * how long ago it was asked), and how it ended once closed. An open row carries no status badge.
 */
function RowFacts({ item, showKind }: { item: InboxItem; showKind: boolean }) {
  const open = item.status === "open";
  return (
    <div className="inbox-meta muted">
      {item.outcome && <OutcomeBadge outcome={item.outcome} />}
      {item.coveringFor && (
        // Addressed to someone away whom the viewer covers for (ADR 0098): their answer counts as theirs.
        <span className="badge">for {item.coveringFor.email} · away</span>
      )}
      {showKind && <span className="inbox-kind">{requestKindSpec(item.kind).label}</span>}
      <span className="inbox-tool">{item.toolName}</span>
      {item.headline && <span className="inbox-headline">{item.headline}</span>}
      {item.askedBy && <span>asked by {item.askedBy}</span>}
      {item.take && open && <TakenNote take={item.take} />}
      {item.expiresAt && open ? (
        <span>
          <ExpiryCountdown expiresAt={item.expiresAt} />
        </span>
      ) : (
        <span>
          {item.askedBy ? "" : "asked "}
          <RequestAge createdAt={item.createdAt} />
        </span>
      )}
    </div>
  );
}

function BulkReportView({ failure, outcomes }: { failure: string | null; outcomes: BulkReport["outcomes"] }) {
  return (
    <>
      {failure && (
        <p role="alert" className="alert alert-error">
          {failure}
        </p>
      )}
      {outcomes && (
        <div role="status">
          <ul className="inbox-outcomes" aria-label="Results">
            {outcomes.map((outcome) => (
              <li key={outcome.id}>
                {outcome.prompt}: {outcome.ok ? "done" : outcome.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
