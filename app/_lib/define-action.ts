import type { z } from "zod";
import { ensureRole } from "@/lib/auth/guards";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Role } from "@/lib/domain/roles";
import { parseInput } from "./parse-input";

/** What an action is called with: the signed-in person and the input as it came over the wire. */
export interface ActionCall {
  actor: SessionUser;
  input: unknown;
}

/** An action's whole server side, callable with any actor: what tests call and `serveAction` serves. */
export type DefinedAction<T, Deps> = (call: ActionCall, deps: Deps) => Promise<T>;

/**
 * Declares an action: the least role it needs and the schema of its transport input. The role
 * is checked before the input is even parsed, and the handler sees only parsed input, so every
 * action refuses strangers and bad input the same way before it does anything. Ownership is the
 * handler's to check, since only it knows what the input points at.
 */
export function defineAction<Schema extends z.ZodType, T, Deps>(
  spec: { role: Role; input: Schema },
  handler: (call: { actor: SessionUser; input: z.infer<Schema> }, deps: Deps) => Promise<T>,
): DefinedAction<T, Deps> {
  return async ({ actor, input }, deps) => {
    ensureRole(actor, spec.role);
    return handler({ actor, input: parseInput(spec.input, input) }, deps);
  };
}
