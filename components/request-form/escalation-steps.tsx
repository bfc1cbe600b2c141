"use client";

import { useEffect, useState } from "react";
import { formatAge } from "@/components/inbox/format-age";
import { describeFiredStep, type EscalationStepView, isLate } from "@/lib/domain/escalation";

/** "12m" / "3h": how late a step fired, coarse as ages are. */
function lateness(ms: number): string {
  return formatAge(ms).replace(" ago", "");
}

/**
 * The escalation steps a request has taken (ADR 0093): "escalated to sre-leads 5m ago",
 * "reminded 2m ago", each saying when it fired late because no instance was running. Renders
 * nothing for a request without fired steps, so any card or row may include it.
 */
export function EscalationSteps({ steps }: { steps: readonly EscalationStepView[] | undefined }) {
  // Ages are read after hydration, so the server's and the browser's markup agree.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => setNow(Date.now()), []);
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
