import { hasRole, type Role } from "@/lib/domain/roles";
import { AppError } from "@/lib/errors";
import type { SessionUser } from "./session-user";

/** Throws `forbidden:role` unless the user holds `role` or a higher one. */
export function ensureRole(user: SessionUser, role: Role): SessionUser {
  if (!hasRole(user.role, role)) throw new AppError("forbidden:role");
  return user;
}
