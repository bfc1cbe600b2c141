import { z } from "zod";
import { defineAction } from "@/app/_lib/define-action";
import {
  addApproverGroupMember,
  createApproverGroup,
  deleteApproverGroup,
  removeApproverGroupMember,
  renameApproverGroup,
} from "@/lib/db/approver-group-admin";
import type { DbClient } from "@/lib/db/db-types";
import { getUserByEmail, normaliseEmail } from "@/lib/db/users";
import { GROUP_NAME_MAX_LENGTH, GROUP_SLUG_PATTERN } from "@/lib/domain/tool-rules";
import { AppError } from "@/lib/errors";

// An admin's changes to approver groups (ADR 0075). Inputs are checked field by field; every
// refusal changes nothing, and every change is audited by the storage function that makes it.

type Deps = { db: DbClient };

const id = z.string().min(1).max(64);
const groupName = z
  .string()
  .trim()
  .min(1, "Give the group a name.")
  .max(GROUP_NAME_MAX_LENGTH, `At most ${GROUP_NAME_MAX_LENGTH} characters.`);

export const createGroupInput = z
  .object({
    slug: z
      .string()
      .regex(
        GROUP_SLUG_PATTERN,
        "Lower-case letters, digits and -, starting with a letter or digit (at most 40).",
      ),
    name: groupName,
  })
  .strict();

export const createGroup = defineAction(
  { role: "admin", input: createGroupInput },
  async ({ actor, input: { slug, name } }, { db }: Deps) => {
    const created = await createApproverGroup({ db, slug, name, actorId: actor.id });
    if (created.outcome === "slug_taken")
      throw new AppError("conflict:group_slug", {
        issues: [{ path: "/slug", message: "A group with this slug already exists." }],
      });
    return { id: created.id, slug, name };
  },
);

export const renameGroup = defineAction(
  { role: "admin", input: z.object({ id, name: groupName }).strict() },
  async ({ actor, input: { id, name } }, { db }: Deps) => {
    const change = await renameApproverGroup({ db, id, name, actorId: actor.id });
    if (change.outcome === "not_found") throw new AppError("not_found:group");
    return { id, name, changed: change.outcome === "changed" };
  },
);

export const deleteGroup = defineAction(
  { role: "admin", input: z.object({ id }).strict() },
  async ({ actor, input: { id } }, { db }: Deps) => {
    const deletion = await deleteApproverGroup({ db, id, actorId: actor.id });
    if (deletion.outcome === "not_found") throw new AppError("not_found:group");
    if (deletion.outcome === "in_use")
      throw new AppError("conflict:group_in_use", {
        message: `This group cannot be deleted: ${deletion.rules.join(", ")} still ${deletion.rules.length === 1 ? "uses" : "use"} it (as its approvers or in an escalation step). Change ${deletion.rules.length === 1 ? "that rule" : "those rules"} first.`,
      });
    return { id };
  },
);

export const addGroupMember = defineAction(
  {
    role: "admin",
    input: z
      .object({ groupId: id, email: z.string().trim().email("Enter an email address.").max(320) })
      .strict(),
  },
  async ({ actor, input: { groupId, email } }, { db }: Deps) => {
    const user = await getUserByEmail({ db, email: normaliseEmail(email) });
    if (!user)
      throw new AppError("bad_request:input", {
        message: "Nobody has an account with this email.",
        issues: [{ path: "/email", message: "Nobody has an account with this email." }],
      });
    const change = await addApproverGroupMember({ db, groupId, userId: user.id, actorId: actor.id });
    if (change.outcome === "group_not_found") throw new AppError("not_found:group");
    if (change.outcome === "user_not_found") throw new AppError("not_found:user");
    return { groupId, userId: user.id, changed: change.outcome === "changed" };
  },
);

export const removeGroupMember = defineAction(
  { role: "admin", input: z.object({ groupId: id, userId: id }).strict() },
  async ({ actor, input: { groupId, userId } }, { db }: Deps) => {
    const change = await removeApproverGroupMember({ db, groupId, userId, actorId: actor.id });
    if (change.outcome === "group_not_found") throw new AppError("not_found:group");
    return { groupId, userId, changed: change.outcome === "changed" };
  },
);
