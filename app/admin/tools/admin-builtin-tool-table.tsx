"use client";

import { BuiltinToolTable } from "@/components/admin/builtin-tool-table";
import type { BuiltinToolRow } from "@/lib/domain/builtin-tool";
import { changeBuiltinToolAction } from "../actions";

/** Binds the built-in tools' switches to their server action. */
export function AdminBuiltinToolTable({ tools }: { tools: BuiltinToolRow[] }) {
  return <BuiltinToolTable tools={tools} submit={changeBuiltinToolAction} />;
}
