import { z } from "zod";
import { parseInput } from "@/app/_lib/parse-input";
import type { SessionUser } from "@/lib/auth/session-user";
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
export async function startChatRun(
  { actor, input }: { actor: SessionUser; input: unknown },
  { engine, db }: { engine: Engine; db: DbClient },
): Promise<{ runId: string }> {
  const { threadId, text } = parseInput(startChatRunInput, input);
  await loadOwnThread({ actor, threadId }, { db });
  const { runId } = await engine.startRun({ threadId, userId: actor.id, message: text });
  await setThreadTitleIfEmpty({ db, threadId, title: text.slice(0, TITLE_LENGTH) });
  return { runId };
}
