import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import { APP_BUILTINS, builtinWorkspace, needsWorkspace } from "@/lib/agent/builtins/app-builtins";
import { setBuiltinEnabled } from "@/lib/db/builtin-tools";
import type { DbClient } from "@/lib/db/db-types";
import { AppError } from "@/lib/errors";

export const changeBuiltinToolInput = z
  .object({
    toolName: z.enum(APP_BUILTINS),
    enabled: z.boolean(),
  })
  .strict();

export interface BuiltinToolChanged {
  toolName: string;
  enabled: boolean;
  changed: boolean;
}

/**
 * An admin switches one of the library's built-ins on or off for every chat. It applies from the
 * next run on, under the tool's approval policy; a tool that works on files cannot be switched
 * on while no workspace is configured. Switching off is always allowed.
 */
export const changeBuiltinTool = defineAction(
  { role: "admin", input: changeBuiltinToolInput },
  async ({ actor, input: { toolName, enabled } }, { db }: { db: DbClient }): Promise<BuiltinToolChanged> => {
    if (enabled && needsWorkspace(toolName) && builtinWorkspace() === undefined) {
      throw new AppError("invalid:workspace", {
        issues: [
          {
            path: "/toolName",
            message: `${toolName} needs a folder on the server to work in, and none is set up yet.`,
          },
        ],
      });
    }
    const change = await setBuiltinEnabled({ db, toolName, enabled, actorId: actor.id });
    return { toolName, enabled, changed: change.outcome === "changed" };
  },
);
