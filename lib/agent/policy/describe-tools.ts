import type { Tool } from "toolnexus";
import { defaultPolicyFor, type ToolPolicy, type ToolPolicyRow } from "@/lib/domain/tool-policy";
import type { ApprovalProfiles } from "./approval-profile";

export function describeToolPolicies(
  tools: readonly Tool[],
  chosen: ReadonlyMap<string, ToolPolicy>,
  profiles: ApprovalProfiles,
): ToolPolicyRow[] {
  return tools
    .map((tool) => {
      const profile = profiles[tool.name];
      const defaultPolicy = defaultPolicyFor(tool.annotations, profile?.defaultPolicy);
      const admin = chosen.get(tool.name);
      return {
        name: tool.name,
        title: tool.annotations?.title ?? tool.name,
        description: tool.description,
        // An MCP tool names its server, so a deployment with several can tell them apart.
        source: tool.server === undefined ? tool.source : `${tool.source}:${tool.server}`,
        annotations: { ...tool.annotations },
        policy: admin ?? defaultPolicy,
        defaultPolicy,
        isDefault: admin === undefined,
        ...(profile?.scope ? { scope: profile.scope } : {}),
      };
    })
    .sort((a, b) => a.source.localeCompare(b.source) || a.name.localeCompare(b.name));
}
