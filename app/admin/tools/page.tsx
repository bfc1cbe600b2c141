import { getAppServices } from "@/app/_lib/app-services";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { mcpConfigPath } from "@/lib/agent/mcp/app-mcp-pool";
import { requirePageRole } from "@/lib/auth/guards";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { ToolRulesSection } from "./_rules/rules-section";
import { loadServersSection } from "./_servers/load-servers-section";
import { ServersSection } from "./_servers/servers-section";
import { BuiltinToolsSection } from "./builtin-tools-section";
import { ToolPolicySection } from "./tool-policy-section";
import "@/components/admin/admin.css";

export const metadata = { title: "Tools · Admin · toolnexus" };

/**
 * The agent's tools, as independent sections with their own data and actions: where tools come
 * from (MCP servers, the built-ins an admin switches on), then what each tool may do (approval policies).
 */
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AdminToolsPage({ searchParams }: { searchParams: SearchParams }) {
  const admin = await requirePageRole("admin", "/admin/tools");
  const { db, mcp } = await getAppServices();
  const [section, mcpTools] = await Promise.all([loadServersSection({ db, mcp }), mcp.tools()]);
  const { clientTool } = await searchParams;
  const configFile = mcpConfigPath();
  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/tools" />
      <ServersSection
        section={section}
        allowPrivate={outboundPrivateAllowed()}
        {...(configFile ? { configFile } : {})}
      />
      <BuiltinToolsSection db={db} />
      <ToolPolicySection db={db} adminId={admin.id} mcpTools={mcpTools} />
      <ToolRulesSection db={db} adminId={admin.id} mcpTools={mcpTools} clientTool={clientTool} />
    </section>
  );
}
