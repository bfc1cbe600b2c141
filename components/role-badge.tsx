import type { Role } from "@/lib/auth/roles";

export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`badge badge-role-${role}`} data-testid="role-badge">
      {role}
    </span>
  );
}
