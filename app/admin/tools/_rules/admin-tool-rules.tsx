"use client";

import { type RulesGroup, type RulesTool, ToolRulesEditor } from "@/components/admin/tool-rules-editor";
import { saveToolRulesAction, tryToolRulesAction } from "./actions";

/** Binds one tool's rules editor to its server actions. */
export function AdminToolRules({ tool, groups }: { tool: RulesTool; groups: RulesGroup[] }) {
  return (
    <ToolRulesEditor tool={tool} groups={groups} save={saveToolRulesAction} trial={tryToolRulesAction} />
  );
}
