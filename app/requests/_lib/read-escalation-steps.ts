import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { listEscalationStepsByRequest } from "@/lib/db/escalation-steps";
import type { EscalationStepView } from "@/lib/domain/escalation";
import type { Engine } from "@/lib/engine/engine-types";

const input = z.object({ requestId: z.string().min(1).max(64) }).strict();

/** The escalation steps a request has taken (ADR 0093), for whoever may see it (the engine decides). */
export const readEscalationSteps = defineAction(
  { role: "user", input },
  async (
    { actor, input },
    { db, engine }: { db: DbClient; engine: Engine },
  ): Promise<EscalationStepView[]> => {
    const request = await engine.readRequest({ requestId: input.requestId, actor });
    const ladders = await listEscalationStepsByRequest({ db, requestRowIds: [request.id] });
    return (ladders.get(request.id) ?? []).filter((step) => step.firedAt !== null);
  },
);
