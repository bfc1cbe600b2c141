import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { listVoteTallies } from "@/lib/db/vote-tallies";
import type { VoteTally } from "@/lib/domain/vote-tally";
import type { Engine } from "@/lib/engine/engine-types";

export const readVoteTallyInput = z.object({ requestId: z.string().min(1).max(64) }).strict();

/** A group request's votes so far, for whoever may see the request (the engine decides who). */
export const readVoteTally = defineAction(
  { role: "user", input: readVoteTallyInput },
  async ({ actor, input }, { db, engine }: { db: DbClient; engine: Engine }): Promise<VoteTally | null> => {
    const request = await engine.readRequest({ requestId: input.requestId, actor });
    const tallies = await listVoteTallies({ db, requests: [request] });
    return tallies.get(request.id) ?? null;
  },
);
