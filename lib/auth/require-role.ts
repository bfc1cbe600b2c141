import "server-only";
import type { Role } from "@/lib/domain/roles";
import { ensureRole } from "./ensure-role";
import { requireUser } from "./require-user";
import type { SessionUser } from "./session-user";

/** For actions and route handlers: 401 when signed out, `forbidden:role` (403) below `role`. */
export async function requireRole(role: Role): Promise<SessionUser> {
  return ensureRole(await requireUser(), role);
}
