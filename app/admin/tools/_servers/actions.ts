"use server";

import { type ActionResult, toActionResult } from "@/app/_lib/action-result";
import { getAppServices } from "@/app/_lib/app-services";
import { requireRole } from "@/lib/auth/guards";
import { addRemoteServer, removeRemoteServer, setRemoteServerDisabled } from "../../_lib/manage-mcp-servers";
import { mcpServerDeps } from "./mcp-server-deps";

/** Adds a remote MCP server; its tools are offered from the next run on. */
export async function addMcpServerAction(
  input: unknown,
): Promise<ActionResult<{ id: string; name: string }>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return addRemoteServer({ actor, input }, await mcpServerDeps());
  });
}

export async function setMcpServerDisabledAction(
  input: unknown,
): Promise<ActionResult<{ id: string; disabled: boolean; changed: boolean }>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return setRemoteServerDisabled({ actor, input }, await getAppServices());
  });
}

export async function removeMcpServerAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return toActionResult(async () => {
    const actor = await requireRole("admin");
    return removeRemoteServer({ actor, input }, await getAppServices());
  });
}
