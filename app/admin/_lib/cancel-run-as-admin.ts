import { z } from "zod";
import { parseInput } from "@/app/_lib/parse-input";
import { ensureRole } from "@/lib/auth/guards";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Engine } from "@/lib/engine/engine-types";

export const cancelRunAsAdminInput = z.object({ runId: z.string().min(1).max(64) }).strict();

/**
 * An admin ends anyone's running or parked run, as its owner's Stop would: open requests are
 * cancelled with it and the owner's chat hears of it live. The engine decides in one
 * conditional write whether the run was still going (`conflict:run_finished` otherwise).
 */
export async function cancelRunAsAdmin(
  { actor, input }: { actor: SessionUser; input: unknown },
  { engine }: { engine: Engine },
): Promise<{ runId: string }> {
  ensureRole(actor, "admin");
  const { runId } = parseInput(cancelRunAsAdminInput, input);
  await engine.cancelRun({ runId, actor });
  return { runId };
}
