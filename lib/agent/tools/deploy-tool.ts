import { defineTool, pending, type Tool } from "toolnexus";
import { z } from "zod";
import { type Clock, expiresIn, HOUR_MS, stableReference, systemClock } from "./tool-clock";

const VERSION_PATTERN = "^v?\\d+(\\.\\d+){0,2}$";

const argsSchema = z.object({
  service: z.string().trim().min(1).max(64),
  version: z.string().regex(new RegExp(VERSION_PATTERN), "version must look like v1.4 or 2.0.1"),
  environment: z.enum(["staging", "production"]),
});

const approvalSchema = z.object({
  version: z.string().regex(new RegExp(VERSION_PATTERN)).optional(),
  note: z.string().max(500).optional(),
});

/** What a reviewer may change before approving: the version, plus a note for the record. */
export const DEPLOY_APPROVAL_SCHEMA = {
  type: "object",
  properties: {
    version: { type: "string", title: "Version", pattern: VERSION_PATTERN },
    note: { type: "string", title: "Note (optional)", maxLength: 500 },
  },
  required: ["version"],
  additionalProperties: false,
};

export const DEPLOY_APPROVAL_TTL_MS = 24 * HOUR_MS;

export function createDeployTool(options: { clock?: Clock } = {}): Tool {
  const clock = options.clock ?? systemClock;
  return defineTool({
    name: "deploy",
    description:
      "Deploy a version of a service. Staging deploys at once; production waits for a reviewer's approval.",
    inputSchema: {
      type: "object",
      properties: {
        service: { type: "string", description: "Service name, e.g. web" },
        version: { type: "string", pattern: VERSION_PATTERN, description: "Version, e.g. v1.4" },
        environment: { type: "string", enum: ["staging", "production"] },
      },
      required: ["service", "version", "environment"],
      additionalProperties: false,
    },
    run: (rawArgs, ctx) => {
      const parsed = argsSchema.safeParse(rawArgs);
      if (!parsed.success) throw new Error(`Invalid deploy arguments: ${z.prettifyError(parsed.error)}`);
      const { service, version, environment } = parsed.data;
      const reference = (finalVersion: string) =>
        stableReference("DEP", ctx?.idempotencyKey, service, finalVersion, environment);

      if (environment === "staging") {
        return `Deployed ${service} ${version} to staging (deployment ${reference(version)}).`;
      }

      if (!ctx?.answer?.ok) {
        return pending({
          kind: "approval",
          prompt: `Approve deploying ${service} ${version} to production?`,
          data: {
            service,
            version,
            environment,
            values: { version },
            schema: DEPLOY_APPROVAL_SCHEMA,
          },
          expiresAt: expiresIn(clock, DEPLOY_APPROVAL_TTL_MS),
        });
      }

      const edits = approvalSchema.safeParse(ctx.answer.data ?? {});
      if (!edits.success)
        throw new Error(`The approval carried invalid data: ${z.prettifyError(edits.error)}`);
      const finalVersion = edits.data.version ?? version;
      const note = edits.data.note?.trim();
      const changed = finalVersion !== version ? ` The reviewer changed the version from ${version}.` : "";
      const noted = note ? ` Reviewer's note: "${note}".` : "";
      return `Deployed ${service} ${finalVersion} to production (deployment ${reference(finalVersion)}).${changed}${noted}`;
    },
  });
}
