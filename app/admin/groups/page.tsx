import { getAppServices } from "@/app/_lib/app-services";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { requirePageRole } from "@/lib/auth/guards";
import { listApproverGroups } from "@/lib/db/approver-group-admin";
import { AdminGroups } from "./admin-groups";
import "@/components/admin/admin.css";

export const metadata = { title: "Groups · Admin · toolnexus" };

/** Approver groups: the teams a tool's rules can ask to sign off a call. */
export default async function AdminGroupsPage() {
  await requirePageRole("admin", "/admin/groups");
  const { db } = await getAppServices();
  const groups = await listApproverGroups({ db });
  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/groups" />
      <h2>Approver groups</h2>
      <p className="muted">
        A tool's rules (at Tools) can address an approval to a group and say how many of its members must
        approve. The person who asked never counts as one of them. Every change here is recorded in the audit
        log.
      </p>
      <AdminGroups groups={groups} />
    </section>
  );
}
