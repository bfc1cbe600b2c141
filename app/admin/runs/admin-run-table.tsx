"use client";

import { useCallback } from "react";
import { type AdminRunItem, RunTable, type SubmitCancel } from "@/components/admin/run-table";
import { cancelRunAsAdminAction } from "../actions";

/** Binds the active runs table to the admin's cancel action. */
export function AdminRunTable({ runs }: { runs: AdminRunItem[] }) {
  const submitCancel = useCallback<SubmitCancel>(async (input) => {
    const result = await cancelRunAsAdminAction(input);
    return result.ok ? { ok: true } : { ok: false, message: result.error.message };
  }, []);
  return <RunTable runs={runs} submitCancel={submitCancel} />;
}
