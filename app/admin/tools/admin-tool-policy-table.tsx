"use client";

import { useCallback } from "react";
import { type SubmitToolPolicy, ToolPolicyTable } from "@/components/admin/tool-policy-table";
import type { ToolPolicyRow } from "@/lib/domain/tool-policy";
import { changeToolPolicyAction } from "../actions";

/** Binds the tool policy table to its server action. */
export function AdminToolPolicyTable({ tools }: { tools: ToolPolicyRow[] }) {
  const submit = useCallback<SubmitToolPolicy>(async (input) => {
    const result = await changeToolPolicyAction(input);
    return result.ok ? { ok: true } : { ok: false, message: result.error.message };
  }, []);
  return <ToolPolicyTable tools={tools} submit={submit} />;
}
