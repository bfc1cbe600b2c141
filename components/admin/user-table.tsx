"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { UserListRow } from "@/lib/domain/admin-rows";
import { ROLES, type Role } from "@/lib/domain/roles";
import { type ActionResult, unsentResult } from "@/lib/errors";
import { RoleBadge } from "../role-badge";
import { CellNote } from "./cell-note";
import { formatUtc } from "./format-utc";
import { useNoteAction } from "./use-note-action";

/** One row of the users table: the listed account as the page reads it. */
export type AdminUserItem = UserListRow;

export type SubmitRole = (input: { userId: string; role: Role }) => Promise<ActionResult<unknown>>;

export type SubmitSignOut = (input: { userId: string }) => Promise<ActionResult<unknown>>;

function labelOf(user: AdminUserItem): string {
  return user.name ?? user.email ?? user.id;
}

/** The role select of one row: Save applies the chosen role; the result shows beside it. */
function RoleCell({
  user,
  self,
  submitRole,
}: {
  user: AdminUserItem;
  self: boolean;
  submitRole: SubmitRole;
}) {
  const router = useRouter();
  const [chosen, setChosen] = useState<Role>(user.role);
  const {
    note,
    busy,
    run: save,
  } = useNoteAction(async () => {
    const result = await submitRole({ userId: user.id, role: chosen }).catch(() =>
      unsentResult("The role could not be saved. Please try again."),
    );
    router.refresh();
    return result.ok
      ? { ok: true, text: `Saved: now ${chosen}.` }
      : { ok: false, text: result.error.message };
  });

  return (
    <>
      <div className="admin-cell-actions admin-role-cell">
        <RoleBadge role={user.role} />
        <select
          aria-label={`New role for ${labelOf(user)}`}
          value={chosen}
          disabled={self || busy}
          onChange={(event) => setChosen(event.target.value as Role)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-secondary"
          disabled={self || busy || chosen === user.role}
          onClick={() => save()}
        >
          Save
        </button>
      </div>
      {self && <span className="admin-cell-note muted">Your own role is changed by another admin.</span>}
      <CellNote note={note} />
    </>
  );
}

/** "Sign out everywhere": ends every session of the account, wherever it is signed in. */
function SessionsCell({ user, submitSignOut }: { user: AdminUserItem; submitSignOut: SubmitSignOut }) {
  const {
    note,
    busy,
    run: signOut,
  } = useNoteAction(async () => {
    const result = await submitSignOut({ userId: user.id }).catch(() =>
      unsentResult("The sessions could not be ended. Please try again."),
    );
    return result.ok
      ? { ok: true, text: "Signed out everywhere." }
      : { ok: false, text: result.error.message };
  });

  return (
    <>
      <button type="button" className="button button-secondary" disabled={busy} onClick={() => signOut()}>
        {/* The name starts with the words on the button, so saying them selects it (WCAG 2.5.3). */}
        Sign out everywhere<span className="visually-hidden"> for {labelOf(user)}</span>
      </button>
      <CellNote note={note} />
    </>
  );
}

export function UserTable({
  users,
  viewerId,
  submitRole,
  submitSignOut,
}: {
  users: AdminUserItem[];
  viewerId: string;
  submitRole: SubmitRole;
  submitSignOut: SubmitSignOut;
}) {
  if (users.length === 0) return <p className="muted">No users match this search.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table admin-table-stack" aria-label="Users">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">Open requests</th>
            <th scope="col">Sessions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <th scope="row">
                {user.name ?? "—"}
                {user.id === viewerId && " (you)"}
              </th>
              <td data-label="Email">{user.email ?? "—"}</td>
              <td data-label="Role">
                <RoleCell user={user} self={user.id === viewerId} submitRole={submitRole} />
              </td>
              <td data-label="Created">
                <time dateTime={user.createdAt}>{formatUtc(user.createdAt)}</time>
              </td>
              <td className="admin-number" data-label="Open requests">
                {user.openRequests}
              </td>
              <td data-label="Sessions">
                <SessionsCell user={user} submitSignOut={submitSignOut} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
