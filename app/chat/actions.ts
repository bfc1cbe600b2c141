"use server";

import { redirect } from "next/navigation";
import { getAppServices } from "@/app/_lib/app-services";
import { serveAction } from "@/app/_lib/serve-action";
import { requireUser } from "@/lib/auth/guards";
import { cancelChatRun } from "./_lib/cancel-chat-run";
import { createChatThread } from "./_lib/create-chat-thread";
import { revokeToolAllowance } from "./_lib/revoke-tool-allowance";
import { startChatRun } from "./_lib/start-chat-run";

/** "New chat": creates an empty thread and opens it. */
export async function createThreadAction(): Promise<void> {
  const actor = await requireUser();
  const { db } = await getAppServices();
  const { threadId } = await createChatThread({ actor }, { db });
  redirect(`/chat/${threadId}`);
}

/** Sends a message: stores it and starts the run, which goes on after this returns. */
export const startRunAction = serveAction(startChatRun);

/** "Stop": ends the thread's running or parked run for its owner; open requests are cancelled. */
export const cancelRunAction = serveAction(cancelChatRun);

/** Takes back "always allow <tool> in this chat"; the tool's next call there asks again. */
export const revokeToolAllowanceAction = serveAction(revokeToolAllowance);
