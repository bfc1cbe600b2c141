"use server";

import { redirect } from "next/navigation";
import { type ActionResult, toActionResult } from "@/app/_lib/action-result";
import { getAppServices } from "@/app/_lib/app-services";
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
export async function startRunAction(input: unknown): Promise<ActionResult<{ runId: string }>> {
  return toActionResult(async () => {
    const actor = await requireUser();
    return startChatRun({ actor, input }, await getAppServices());
  });
}

/** "Stop": ends the thread's running or parked run for its owner; open requests are cancelled. */
export async function cancelRunAction(input: unknown): Promise<ActionResult<{ runId: string }>> {
  return toActionResult(async () => {
    const actor = await requireUser();
    return cancelChatRun({ actor, input }, await getAppServices());
  });
}

/** Takes back "always allow <tool> in this chat"; the tool's next call there asks again. */
export async function revokeToolAllowanceAction(
  input: unknown,
): Promise<ActionResult<{ threadId: string; toolName: string }>> {
  return toActionResult(async () => {
    const actor = await requireUser();
    return revokeToolAllowance({ actor, input }, await getAppServices());
  });
}
