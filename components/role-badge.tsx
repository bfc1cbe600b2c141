import type { Role } from "@/lib/domain/roles";

export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`badge badge-role-${role}`} data-testid="role-badge">
      {role}
    </span>
  );
}
