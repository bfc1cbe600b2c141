import { defineTool, type Tool } from "toolnexus";
import { z } from "zod";
import type { ApprovalProfile } from "@/lib/agent/policy/approval-profile";
import { stableReference } from "./tool-clock";

const VERSION_PATTERN = "^v?\\d+(\\.\\d+){0,2}$";

const argsSchema = z.object({
  service: z.string().trim().min(1).max(64),
  version: z.string().regex(new RegExp(VERSION_PATTERN), "version must look like v1.4 or 2.0.1"),
  environment: z.enum(["staging", "production"]),
});

/**
 * Production deploys are what the approval policy is about; staging deploys run at once under
 * any policy but "blocked". A deploy replaces what was running, so the default is a reviewer.
 */
export const DEPLOY_APPROVAL: ApprovalProfile = {
  asksFor: (args) => args.environment === "production",
  scope: "production deploys",
  prompt: (args) => `Approve deploying ${String(args.service)} ${String(args.version)} to production?`,
  summary: "Deploy {service} {version} to {environment}",
};

export function createDeployTool(): Tool {
  return defineTool({
    name: "deploy",
    description:
      "Deploy a version of a service. Staging deploys at once; production waits for approval as its policy says.",
    annotations: {
      title: "Deploy a service",
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    },
    inputSchema: {
      type: "object",
      properties: {
        service: { type: "string", title: "Service", description: "Service name, e.g. web" },
        version: {
          type: "string",
          title: "Version",
          pattern: VERSION_PATTERN,
          description: "Version, e.g. v1.4",
        },
        environment: { type: "string", title: "Environment", enum: ["staging", "production"] },
      },
      required: ["service", "version", "environment"],
      additionalProperties: false,
    },
    run: (rawArgs, ctx) => {
      const parsed = argsSchema.safeParse(rawArgs);
      if (!parsed.success) throw new Error(`Invalid deploy arguments: ${z.prettifyError(parsed.error)}`);
      const { service, version, environment } = parsed.data;
      const reference = stableReference("DEP", ctx?.idempotencyKey, service, version, environment);
      return `Deployed ${service} ${version} to ${environment} (deployment ${reference}).`;
    },
  });
}
