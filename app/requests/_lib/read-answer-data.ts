import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { Engine } from "@/lib/engine/engine-types";

export const readAnswerDataInput = z.object({ requestId: z.string().min(1).max(64) }).strict();

/**
 * What a closed request was answered with, for whoever may see the request (the engine decides
 * who), so a chat card can say it in words. The chat's events carry only the outcome: answers
 * stay out of the event log, which every stream of the thread replays.
 */
export const readAnswerData = defineAction(
  { role: "user", input: readAnswerDataInput },
  async ({ actor, input }, { engine }: { engine: Engine }): Promise<Record<string, unknown> | null> => {
    const request = await engine.readRequest({ requestId: input.requestId, actor });
    if (request.status === "open") return null;
    const data = request.answer?.data;
    return data && typeof data === "object" && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : null;
  },
);
