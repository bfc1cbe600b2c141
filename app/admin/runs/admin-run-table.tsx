"use client";

import { type AdminRunItem, RunTable } from "@/components/admin/run-table";
import { cancelRunAsAdminAction } from "../actions";

/** Binds the active runs table to the admin's cancel action. */
export function AdminRunTable({ runs }: { runs: AdminRunItem[] }) {
  return <RunTable runs={runs} submitCancel={cancelRunAsAdminAction} />;
}
