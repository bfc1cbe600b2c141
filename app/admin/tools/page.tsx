import { getAppServices } from "@/app/_lib/app-services";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { mcpConfigPath } from "@/lib/agent/mcp/app-mcp-pool";
import { requirePageRole } from "@/lib/auth/guards";
import { loadServersSection } from "./_servers/load-servers-section";
import { ServersSection } from "./_servers/servers-section";
import "@/components/admin/admin.css";

export const metadata = { title: "Tools · Admin · toolnexus" };

export default async function AdminToolsPage() {
  await requirePageRole("admin", "/admin/tools");
  const { db, mcp } = await getAppServices();
  const section = await loadServersSection({ db, mcp });
  const configFile = mcpConfigPath();
  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/tools" />
      <ServersSection section={section} {...(configFile ? { configFile } : {})} />
    </section>
  );
}
