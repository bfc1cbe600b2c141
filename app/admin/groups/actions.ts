"use server";

import { serveAction } from "@/app/_lib/serve-action";
import {
  addGroupMember,
  createGroup,
  deleteGroup,
  removeGroupMember,
  renameGroup,
} from "../_lib/manage-approver-groups";

/** Creates an approver group; rules may address it from then on. */
export const createGroupAction = serveAction(createGroup);

export const renameGroupAction = serveAction(renameGroup);

/** Deletes a group no rule addresses; one a rule uses is refused, naming the rules. */
export const deleteGroupAction = serveAction(deleteGroup);

export const addGroupMemberAction = serveAction(addGroupMember);

/** A member removed keeps the votes they already cast (ADR 0075). */
export const removeGroupMemberAction = serveAction(removeGroupMember);
