"use client";

import { ApproverGroups } from "@/components/admin/approver-groups";
import type { ApproverGroupRow } from "@/lib/domain/approver-groups";
import {
  addGroupMemberAction,
  createGroupAction,
  deleteGroupAction,
  removeGroupMemberAction,
  renameGroupAction,
} from "./actions";

const actions = {
  create: createGroupAction,
  rename: renameGroupAction,
  remove: deleteGroupAction,
  addMember: addGroupMemberAction,
  removeMember: removeGroupMemberAction,
};

/** Binds the groups panel to its server actions. */
export function AdminGroups({ groups }: { groups: ApproverGroupRow[] }) {
  return <ApproverGroups groups={groups} actions={actions} />;
}
