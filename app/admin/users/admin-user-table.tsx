"use client";

import { useCallback } from "react";
import {
  type AdminUserItem,
  type SubmitRole,
  type SubmitSignOut,
  UserTable,
} from "@/components/admin/user-table";
import { changeUserRoleAction, signOutUserEverywhereAction } from "../actions";

/** Binds the users table to the role-change and sign-out actions. */
export function AdminUserTable({ users, viewerId }: { users: AdminUserItem[]; viewerId: string }) {
  const submitRole = useCallback<SubmitRole>(async (input) => {
    const result = await changeUserRoleAction(input);
    return result.ok ? { ok: true } : { ok: false, message: result.error.message };
  }, []);
  const submitSignOut = useCallback<SubmitSignOut>(async (input) => {
    const result = await signOutUserEverywhereAction(input);
    return result.ok ? { ok: true } : { ok: false, message: result.error.message };
  }, []);
  return (
    <UserTable users={users} viewerId={viewerId} submitRole={submitRole} submitSignOut={submitSignOut} />
  );
}
