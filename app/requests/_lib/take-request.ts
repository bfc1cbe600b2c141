import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import type { DbClient } from "@/lib/db/db-types";
import { releaseRequestById, takeRequestById } from "@/lib/db/request-takes";
import { getBareRequestById } from "@/lib/db/requests";
import { getUserById } from "@/lib/db/users";
import type { EventBus } from "@/lib/engine/event-bus";
import { announceChangeWithoutEvent } from "@/lib/engine/event-bus";
import { AppError } from "@/lib/errors";

// Long enough to read a request and ask around; short enough that a reviewer who walked away
// frees it soon. TOOLNEXUS_TAKE_SECONDS shortens it (the browser tests watch one lapse).
const DEFAULT_TAKE_SECONDS = 10 * 60;

export function takeDurationMs(env: Record<string, string | undefined> = process.env): number {
  const seconds = Number(env.TOOLNEXUS_TAKE_SECONDS);
  return (Number.isInteger(seconds) && seconds > 0 ? seconds : DEFAULT_TAKE_SECONDS) * 1000;
}

export const takeRequestInput = z
  .object({ requestId: z.string().min(1).max(64), take: z.boolean() })
  .strict();

export interface TakeDeps {
  db: DbClient;
  bus: EventBus;
  takeMs?: number;
  now?: () => Date;
}

/**
 * A reviewer's "I'm on it" (`take: true`, which also renews their own take) or "Let go"
 * (`take: false`). Only reviewers' requests can be taken, by those who may answer them; a
 * request the reviewer may not see reads as unknown. The inbox learns of it live: the notice
 * on the request's thread makes every open inbox check its version, which reads the takes.
 */
export const takeRequest = defineAction(
  { role: "reviewer", input: takeRequestInput },
  async ({ actor, input }, { db, bus, takeMs = takeDurationMs(), now = () => new Date() }: TakeDeps) => {
    const request = await getBareRequestById({ db, id: input.requestId });
    if (request?.audience !== "reviewers") throw new AppError("not_found:request");
    const at = now();
    if (!input.take) {
      await releaseRequestById({ db, id: request.id, takerId: actor.id, now: at });
      await announceChangeWithoutEvent(bus, request.threadId);
      return { taken: false as const };
    }
    const outcome = await takeRequestById({
      db,
      id: request.id,
      takerId: actor.id,
      now: at,
      until: new Date(at.getTime() + takeMs),
    });
    switch (outcome.status) {
      case "taken":
        await announceChangeWithoutEvent(bus, request.threadId);
        return { taken: true as const, until: outcome.until.toISOString() };
      case "taken_by_other": {
        const holder = await getUserById({ db, userId: outcome.takerId });
        const name = holder?.name ?? holder?.email;
        throw new AppError("conflict:request_taken", name ? { message: `${name} is already on it.` } : {});
      }
      case "closed":
        throw new AppError("conflict:request_closed");
      case "missing":
        throw new AppError("not_found:request");
    }
  },
);
