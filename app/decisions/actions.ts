"use server";

import { serveAction } from "@/app/_lib/serve-action";
import { commitDecisions, holdDecision, holdDecisions, undoDecisions } from "./_lib/held-decisions";

/** A reviewer's decision, held for a few seconds so it can be undone (ADR 0080). */
export const holdDecisionAction = serveAction(holdDecision);
export const holdDecisionsAction = serveAction(holdDecisions);
export const undoDecisionsAction = serveAction(undoDecisions);
export const commitDecisionsAction = serveAction(commitDecisions);
