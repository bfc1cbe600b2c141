"use client";

import { useEffect, useState } from "react";
import { formatAge } from "@/components/inbox/format-age";
import { describeFiredStep, type EscalationStepView, isLate } from "@/lib/domain/escalation";
import type { ActionResult } from "@/lib/errors";

export type ReadEscalation = (input: { requestId: string }) => Promise<ActionResult<EscalationStepView[]>>;

// How often an open request's steps are read again while a card shows it: the fallback for a
// chat whose stream missed the change (a chat card reads them at once when its `read` is renewed).
const POLL_MS = 10_000;

/** "12m" / "3h": how late a step fired, coarse as ages are. */
function lateness(ms: number): string {
  return formatAge(ms).replace(" ago", "");
}

/**
 * The escalation steps a request has taken (ADR 0093): "escalated to sre-leads 5m ago",
 * "reminded 2m ago", each saying when it fired late because no instance was running. Renders
 * nothing for a request without fired steps, so any card or row may include it. With `read`
 * (a chat card, whose events say nothing of steps) it reads them whenever `read` is a new
 * function (the chat renews it when its stream says the request changed) and every few seconds,
 * and calls `onRead` after each read, since no fired step shows nothing, not even a read one.
 */
export function EscalationSteps({
  steps: initial,
  read,
  onRead,
}: {
  steps: readonly EscalationStepView[] | undefined;
  read?: { requestId: string; with: ReadEscalation };
  onRead?: () => void;
}) {
  // What `read` last returned; until then, and for a row without `read`, the steps as given, so
  // a row the live inbox renders again shows the steps fired meanwhile.
  const [polled, setPolled] = useState<readonly EscalationStepView[] | null>(null);
  const steps = polled ?? initial;
  // Ages are read after hydration, so the server's and the browser's markup agree.
  const [now, setNow] = useState<number | null>(null);
  const requestId = read?.requestId;
  const readWith = read?.with;
  useEffect(() => {
    setNow(Date.now());
    if (!requestId || !readWith) return;
    let live = true;
    const poll = async () => {
      const result = await readWith({ requestId }).catch(() => null);
      if (live && result?.ok) {
        setPolled(result.value);
        setNow(Date.now());
        onRead?.();
      }
    };
    void poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [requestId, readWith, onRead]);
  const fired = (steps ?? []).filter((step) => step.firedAt !== null);
  if (fired.length === 0) return null;
  return (
    <ul className="escalation-steps" aria-label="Escalation">
      {fired.map((step) => (
        <li key={step.position} data-step={step.position + 1}>
          {describeFiredStep(step.action)}
          {now !== null && ` ${formatAge(now - Date.parse(step.firedAt!))}`}
          {isLate(step) && ` (late by ${lateness(step.lateMs!)}: no instance was running when it was due)`}
        </li>
      ))}
    </ul>
  );
}
