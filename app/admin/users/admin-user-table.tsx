"use client";

import { type AdminUserItem, UserTable } from "@/components/admin/user-table";
import { changeUserRoleAction, signOutUserEverywhereAction } from "../actions";

/** Binds the users table to the role-change and sign-out actions. */
export function AdminUserTable({ users, viewerId }: { users: AdminUserItem[]; viewerId: string }) {
  return (
    <UserTable
      users={users}
      viewerId={viewerId}
      submitRole={changeUserRoleAction}
      submitSignOut={signOutUserEverywhereAction}
    />
  );
}
