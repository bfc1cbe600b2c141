"use client";

import { useCallback } from "react";
import { type AdminUserItem, type SubmitRole, UserTable } from "@/components/admin/user-table";
import { changeUserRoleAction } from "../actions";

/** Binds the users table to the role-change action. */
export function AdminUserTable({ users, viewerId }: { users: AdminUserItem[]; viewerId: string }) {
  const submitRole = useCallback<SubmitRole>(async (input) => {
    const result = await changeUserRoleAction(input);
    return result.ok ? { ok: true } : { ok: false, message: result.error.message };
  }, []);
  return <UserTable users={users} viewerId={viewerId} submitRole={submitRole} />;
}
