import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { setThreadTitleIfEmpty } from "@/lib/db/chat-threads";
import type { DbClient } from "@/lib/db/db-types";
import type { Engine } from "@/lib/engine/engine-types";
import { loadOwnThread } from "./load-own-thread";

export const MAX_MESSAGE_LENGTH = 4000;

export const startChatRunInput = z
  .object({
    threadId: z.string().min(1).max(64),
    text: z.string().trim().min(1, "Type a message first.").max(MAX_MESSAGE_LENGTH),
  })
  .strict();

const TITLE_LENGTH = 60;

/** Sends the owner's message: the engine stores it and runs the agent in the background. */
export const startChatRun = defineAction(
  { role: "user", input: startChatRunInput },
  async ({ actor, input: { threadId, text } }, { engine, db }: { engine: Engine; db: DbClient }) => {
    await loadOwnThread({ actor, threadId }, { db });
    const { runId } = await engine.startRun({ threadId, userId: actor.id, message: text });
    await setThreadTitleIfEmpty({ db, threadId, title: text.slice(0, TITLE_LENGTH) });
    return { runId };
  },
);
