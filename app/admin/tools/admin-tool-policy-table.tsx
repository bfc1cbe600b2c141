"use client";

import { ToolPolicyTable } from "@/components/admin/tool-policy-table";
import type { ToolPolicyRow } from "@/lib/domain/tool-policy";
import { changeToolPolicyAction } from "../actions";

/** Binds the tool policy table to its server action. */
export function AdminToolPolicyTable({ tools }: { tools: ToolPolicyRow[] }) {
  return <ToolPolicyTable tools={tools} submit={changeToolPolicyAction} />;
}
