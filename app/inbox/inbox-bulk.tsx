"use client";

import { useCallback } from "react";
import { useDecisions } from "@/components/decisions/decisions-context";
import type { InboxItem, SubmitBulk } from "@/components/inbox/inbox-item";
import { InboxList } from "@/components/inbox/inbox-list";
import { holdDecisionsAction } from "../decisions/actions";
import { answerManyAction } from "./actions";

/**
 * Binds the inbox list to the bulk decision: held a few seconds with one toast and one Undo for
 * the lot (ADR 0080), or answered at once where no toast can be shown.
 */
export function InboxBulk({
  items,
  canBulk,
  selectedId,
  defaultView,
}: {
  items: InboxItem[];
  canBulk: boolean;
  selectedId?: string;
  defaultView: boolean;
}) {
  const decisions = useDecisions();
  const submitBulk = useCallback<SubmitBulk>(
    async (input) => {
      if (!decisions) return answerManyAction(input);
      const result = await holdDecisionsAction(input);
      if (!result.ok) return result;
      const held = result.value.filter((outcome) => outcome.ok);
      if (held.length > 0) {
        const approve = input.decision.decision === "approve";
        decisions.showHeld({
          requestIds: held.map((outcome) => outcome.id),
          heldIds: held.map((outcome) => outcome.heldId),
          outcome: approve ? "approved" : "declined",
          text: `${held.length === 1 ? "1 request" : `${held.length} requests`} ${approve ? "approved" : "declined"}`,
          commitAt: Math.max(...held.map((outcome) => Date.parse(outcome.commitAt))),
        });
      }
      return {
        ok: true,
        value: result.value.map((outcome) =>
          outcome.ok
            ? { id: outcome.id, ok: true as const }
            : { id: outcome.id, ok: false as const, message: outcome.message },
        ),
      };
    },
    [decisions],
  );
  return (
    <InboxList
      items={items}
      canBulk={canBulk}
      submitBulk={submitBulk}
      defaultView={defaultView}
      {...(selectedId ? { selectedId } : {})}
    />
  );
}
