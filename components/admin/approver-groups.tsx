"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { FieldError as SharedFieldError } from "@/components/field-error";
import type { ApproverGroupRow } from "@/lib/domain/approver-groups";
import { type ActionResult, type FieldIssue, unsentResult } from "@/lib/errors";
import { CellNote } from "./cell-note";
import { type Note, useNoteAction } from "./use-note-action";

type Submit<I> = (input: I) => Promise<ActionResult<unknown>>;

export interface ApproverGroupActions {
  create: Submit<{ slug: string; name: string }>;
  rename: Submit<{ id: string; name: string }>;
  remove: Submit<{ id: string }>;
  addMember: Submit<{ groupId: string; email: string }>;
  removeMember: Submit<{ groupId: string; userId: string }>;
}

type Outcome = { note: Note; issues: FieldIssue[] };

/** Calls an action, refreshes the page's data, and says what happened. */
function useGroupAction<I>(submit: Submit<I>, saved: (input: I) => string) {
  const router = useRouter();
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const action = useNoteAction(async (input: I): Promise<Note> => {
    const result = await submit(input).catch(() =>
      unsentResult("The change could not be sent. Please try again."),
    );
    setIssues(result.ok ? [] : result.error.issues);
    router.refresh();
    return result.ok ? { ok: true, text: saved(input) } : { ok: false, text: result.error.message };
  });
  return { ...action, issues } satisfies Outcome & { busy: boolean };
}

function FieldError(props: { issues: FieldIssue[]; path: string; id: string }) {
  return <SharedFieldError {...props} className="admin-cell-note admin-cell-error" />;
}

function CreateGroupForm({ create }: { create: ApproverGroupActions["create"] }) {
  const id = useId();
  const [slug, setSlug] = useState("");
  const [name, setName] = useState("");
  const { note, busy, run, issues } = useGroupAction(create, (input) => `Created ${input.slug}.`);
  const slugError = issues.some((issue) => issue.path === "/slug");
  const nameError = issues.some((issue) => issue.path === "/name");
  return (
    <form
      className="admin-server-form stack"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        run({ slug: slug.trim(), name });
      }}
    >
      <h3 id={`${id}-title`}>Create a group</h3>
      <label>
        Slug
        <input
          name="slug"
          value={slug}
          placeholder="finance"
          autoComplete="off"
          disabled={busy}
          aria-invalid={slugError}
          aria-describedby={slugError ? `${id}-slug-error` : undefined}
          onChange={(event) => setSlug(event.target.value)}
        />
        <FieldError issues={issues} path="/slug" id={`${id}-slug-error`} />
      </label>
      <label>
        Display name
        <input
          name="name"
          value={name}
          placeholder="Finance"
          autoComplete="off"
          disabled={busy}
          aria-invalid={nameError}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <FieldError issues={issues} path="/name" id={`${id}-name-error`} />
      </label>
      <div className="admin-cell-actions">
        <button type="submit" className="button" disabled={busy}>
          Create group
        </button>
      </div>
      <CellNote note={note} />
    </form>
  );
}

function GroupCard({ group, actions }: { group: ApproverGroupRow; actions: ApproverGroupActions }) {
  const id = useId();
  const [name, setName] = useState(group.name);
  const [email, setEmail] = useState("");
  const rename = useGroupAction(actions.rename, (input) => `Renamed to ${input.name}.`);
  const add = useGroupAction(actions.addMember, (input) => `Added ${input.email}.`);
  const removeMember = useGroupAction(actions.removeMember, () => "Removed.");
  const remove = useGroupAction(actions.remove, () => `Deleted ${group.slug}.`);
  const busy = rename.busy || add.busy || removeMember.busy || remove.busy;
  const emailError = add.issues.some((issue) => issue.path === "/email");
  return (
    <section className="stack admin-group" data-group={group.slug} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {group.name} <code>{group.slug}</code>
      </h3>
      <p className="muted admin-cell-note">
        {group.usedBy.length > 0 ? `Used by ${group.usedBy.join(", ")}.` : "No rule uses this group."}
      </p>
      <form
        className="admin-cell-actions"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          rename.run({ id: group.id, name });
        }}
      >
        <label>
          Display name of {group.slug}
          <input value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="button button-secondary" disabled={busy || name === group.name}>
          Rename
        </button>
      </form>
      <FieldError issues={rename.issues} path="/name" id={`${id}-rename-error`} />
      <CellNote note={rename.note} />
      <h4>Members</h4>
      {group.members.length === 0 ? (
        <p className="muted">Nobody yet.</p>
      ) : (
        <ul className="stack" aria-label={`Members of ${group.slug}`}>
          {group.members.map((member) => (
            <li key={member.userId} className="admin-cell-actions">
              <span>{member.email ?? member.name ?? member.userId}</span>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy}
                onClick={() => removeMember.run({ groupId: group.id, userId: member.userId })}
              >
                Remove {member.email ?? "member"}
              </button>
            </li>
          ))}
        </ul>
      )}
      <CellNote note={removeMember.note} />
      <form
        className="admin-cell-actions"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add.run({ groupId: group.id, email });
        }}
      >
        <label>
          Add a member to {group.slug} (email)
          <input
            type="email"
            value={email}
            autoComplete="off"
            disabled={busy}
            aria-invalid={emailError}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <button type="submit" className="button button-secondary" disabled={busy}>
          Add member
        </button>
      </form>
      <FieldError issues={add.issues} path="/email" id={`${id}-email-error`} />
      <CellNote note={add.note} />
      <div className="admin-cell-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => remove.run({ id: group.id })}
        >
          Delete {group.slug}
        </button>
      </div>
      <CellNote note={remove.note} />
    </section>
  );
}

/** Approver groups: who signs off what a rule addresses to a group. */
export function ApproverGroups({
  groups,
  actions,
}: {
  groups: ApproverGroupRow[];
  actions: ApproverGroupActions;
}) {
  return (
    <div className="stack">
      <CreateGroupForm create={actions.create} />
      {groups.length === 0 ? (
        <p className="muted">There are no groups yet.</p>
      ) : (
        groups.map((group) => <GroupCard key={group.id} group={group} actions={actions} />)
      )}
    </div>
  );
}
