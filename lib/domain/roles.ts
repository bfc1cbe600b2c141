// Who people are to the app. Every layer speaks of roles and actors in these words; validation
// schemas build on `ROLES` where input arrives, so the list exists once.

export const ROLES = ["user", "reviewer", "admin"] as const;

export type Role = (typeof ROLES)[number];

/** Whoever performs an action, as the server knows them from the session. */
export interface Actor {
  id: string;
  role: Role;
}

// Roles are ranked so an admin can do whatever a reviewer can, and a reviewer whatever a
// user can; route code then asks for the least role it needs.
const RANK: Record<Role, number> = { user: 0, reviewer: 1, admin: 2 };

export function hasRole(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Unknown or missing values fall back to the least privileged role. */
export function parseRole(value: unknown): Role {
  return isRole(value) ? value : "user";
}
