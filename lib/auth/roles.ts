import { z } from "zod";

export const ROLES = ["user", "reviewer", "admin"] as const;

export const roleSchema = z.enum(ROLES);

export type Role = z.infer<typeof roleSchema>;

// Roles are ranked so an admin can do whatever a reviewer can, and a reviewer whatever a
// user can; route code then asks for the least role it needs.
const RANK: Record<Role, number> = { user: 0, reviewer: 1, admin: 2 };

export function hasRole(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}

/** Unknown or missing values fall back to the least privileged role. */
export function parseRole(value: unknown): Role {
  const parsed = roleSchema.safeParse(value);
  return parsed.success ? parsed.data : "user";
}
