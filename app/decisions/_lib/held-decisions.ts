import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { publicErrorOf } from "@/app/_lib/public-error";
import { answerFor, answerManyInput } from "@/app/inbox/_lib/answer-many";
import { answerInput } from "@/app/requests/_lib/submit-answer";
import type { Engine } from "@/lib/engine/engine-types";

// The reviewer's side of a held decision (ADR 0080): hold it, undo it, or commit it when the
// page's timer ends. Whatever the page does or fails to do, the engine's sweep commits a held
// decision at its time; these only make it feel immediate.

const heldId = z.string().min(1).max(64);

/** Holds one decision, checked as an answer is; it commits in a few seconds unless undone. */
export const holdDecision = defineAction(
  { role: "user", input: z.object({ requestId: z.string().min(1).max(64), answer: answerInput }).strict() },
  async ({ actor, input }, { engine }: { engine: Engine }) => engine.holdDecision({ ...input, actor }),
);

export type HeldOutcome =
  | { id: string; ok: true; heldId: string; commitAt: string }
  | { id: string; ok: false; message: string };

/** A bulk decision, each request held on its own; one refused does not stop the others. */
export const holdDecisions = defineAction(
  { role: "reviewer", input: answerManyInput },
  async ({ actor, input: { requestIds, decision } }, { engine }: { engine: Engine }) => {
    const outcomes: HeldOutcome[] = [];
    for (const requestId of requestIds) {
      try {
        const held = await engine.holdDecision({ requestId, actor, answer: answerFor(decision) });
        outcomes.push({ id: requestId, ok: true, ...held });
      } catch (error) {
        outcomes.push({ id: requestId, ok: false, message: publicErrorOf(error).message });
      }
    }
    return outcomes;
  },
);

/** Undo: the request is open again as if nothing had been decided. */
export const undoDecisions = defineAction(
  { role: "user", input: z.object({ heldIds: z.array(heldId).min(1).max(50) }).strict() },
  async ({ actor, input }, { engine }: { engine: Engine }) => {
    for (const id of input.heldIds) await engine.undoDecision({ heldId: id, actor });
    return { undone: input.heldIds.length };
  },
);

/** The page's timer ended: commit now rather than at the next sweep (a no-op if already done). */
export const commitDecisions = defineAction(
  { role: "user", input: z.object({ heldIds: z.array(heldId).min(1).max(50) }).strict() },
  async ({ input }, { engine }: { engine: Engine }) => {
    let committed = 0;
    for (const id of input.heldIds)
      if ((await engine.commitDecision(id)).status === "committed") committed += 1;
    return { committed };
  },
);
