"use client";

import { forwardRef } from "react";
import type { ToolPolicyRow } from "@/lib/domain/tool-policy";

/** What the tool says about itself that makes running it unasked worth a second thought. */
function warningOf(tool: ToolPolicyRow): string {
  const destructive = tool.annotations.destructiveHint === true;
  const open = tool.annotations.openWorldHint === true;
  if (destructive && open) return "It says it may change or delete things, and reach beyond this app.";
  if (destructive) return "It says it may change or delete things.";
  return "It says it reaches beyond this app, to other systems or the internet.";
}

/**
 * Asks before a tool that may destroy something or reach the outside world runs without anyone
 * approving it. The browser's own modal dialog: focus stays inside, Esc cancels.
 */
export const RunFreelyDialog = forwardRef<HTMLDialogElement, { tool: ToolPolicyRow; onConfirm: () => void }>(
  function RunFreelyDialog({ tool, onConfirm }, ref) {
    const titleId = `run-freely-${tool.name}`;
    return (
      <dialog ref={ref} className="card admin-dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>Let {tool.name} run without approval?</h2>
        <p>{warningOf(tool)}</p>
        <p>Every call of it will run at once, in every chat, with nobody asked first.</p>
        <form method="dialog" className="admin-dialog-actions">
          <button type="submit" className="button button-secondary" value="cancel">
            Cancel
          </button>
          <button type="submit" className="button button-danger" value="confirm" onClick={onConfirm}>
            Let it run freely
          </button>
        </form>
      </dialog>
    );
  },
);
