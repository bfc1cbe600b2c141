import "server-only";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { DbClient } from "@/lib/db/db-types";
import { ANSWER_DATA_MAX_BYTES, answerDataBytes, formatKilobytes } from "@/lib/domain/answer-limits";
import { askAndWait, type McpCallContext } from "./ask-and-wait";
import { defaultExpirySeconds, MAX_EXPIRY_SECONDS } from "./mcp-limits";
import { answererOf, promptForPermission } from "./permission-prompt";
import { approvalRequest, approvalResult, questionRequest, questionResult } from "./tool-requests";

// The three tools agents call. Their arguments are checked by the SDK against these schemas
// before anything is made, so a bad call is a tool error naming the field and asks nobody.

const object = (what: string) =>
  z.record(z.string(), z.unknown()).refine((value) => answerDataBytes(value) <= ANSWER_DATA_MAX_BYTES, {
    message: `${what} must be at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)} as JSON`,
  });
const prompt = z.string().trim().min(1, "must not be empty").max(2_000).describe("What the person is asked.");
const expiresIn = z
  .number()
  .int()
  .min(1)
  .max(MAX_EXPIRY_SECONDS)
  .optional()
  .describe("Seconds until the request expires unanswered (then it is not approved); 15 minutes by default.");
const idempotencyKey = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe("Names this call: repeating it (after a dropped connection) returns the same request.");

const approvalOutput = {
  request_id: z.string(),
  status: z.enum(["approved", "declined", "expired", "cancelled"]),
  approved: z.boolean(),
  note: z.string().optional().describe("The approver's note, or the reason for declining."),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The arguments as approved (maybe edited)."),
  by: z.string().optional().describe("Who answered."),
};
const questionOutput = {
  request_id: z.string(),
  status: z.enum(["answered", "declined", "expired", "cancelled"]),
  answered: z.boolean(),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The answer; it satisfies `schema` when one was given."),
  note: z.string().optional().describe("The reason for declining, if one was given."),
  by: z.string().optional().describe("Who answered."),
};

// Built once: each POST registers the tools on a fresh server, and these are shared.
const permissionPromptTool = {
  title: "Ask the inbox for permission",
  description:
    "Claude Code's permission prompt (--permission-prompt-tool): asks a person in the toolnexus inbox whether the tool may run, and waits. Returns {behavior:'allow', updatedInput} or {behavior:'deny', message}.",
  inputSchema: z.object({
    tool_name: z.string().min(1).max(200).describe("The tool that wants to run, e.g. Bash."),
    input: object("input").describe("The tool's input; the approver may edit it."),
    tool_use_id: z.string().min(1).max(200).optional().describe("The tool use this permission is for."),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};

const requestApprovalTool = {
  title: "Ask a person to approve",
  description:
    "Asks for an approval in the toolnexus inbox and waits for the decision. `arguments` are shown and may be edited by the approver; the result carries them as approved.",
  inputSchema: z.object({
    prompt,
    details: z.string().max(4_000).optional().describe("More for the approver to read."),
    arguments: object("arguments").optional().describe("What is to be approved; editable."),
    expires_in_seconds: expiresIn,
    audience: z.enum(["owner", "reviewers"]).optional().describe("Who answers; reviewers by default."),
    idempotency_key: idempotencyKey,
  }),
  outputSchema: z.object(approvalOutput),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};

const askHumanTool = {
  title: "Ask a person a question",
  description:
    "Asks the token's owner in the toolnexus inbox and waits for the answer. With `schema` (a JSON Schema object) the person fills in that form and the answer satisfies it; without, they write one answer.",
  inputSchema: z.object({
    prompt,
    schema: object("schema").optional().describe("A JSON Schema (type object) for the answer."),
    expires_in_seconds: expiresIn,
    idempotency_key: idempotencyKey,
  }),
  outputSchema: z.object(questionOutput),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
};

function structured(result: Record<string, unknown>, summary: string) {
  return { content: [{ type: "text" as const, text: summary }], structuredContent: result };
}

export function registerMcpTools(server: McpServer, context: McpCallContext & { db: DbClient }): void {
  server.registerTool("permission_prompt", permissionPromptTool, (input, extra) =>
    promptForPermission(context, input, extra),
  );

  server.registerTool("request_approval", requestApprovalTool, async (input, extra) => {
    const stored = await askAndWait(
      context,
      {
        tool: "request_approval",
        request: approvalRequest({
          prompt: input.prompt,
          ...(input.details ? { details: input.details } : {}),
          ...(input.arguments ? { args: input.arguments } : {}),
          expiresInSeconds: input.expires_in_seconds ?? defaultExpirySeconds(),
        }),
        ...(input.audience ? { audience: input.audience } : {}),
        callKey: input.idempotency_key,
        sameness: { ...input, expires_in_seconds: undefined },
        keyField: "idempotency_key",
      },
      extra,
    );
    const result = approvalResult(stored, await answererOf(context.db, stored));
    const by = result.by ? ` by ${result.by}` : "";
    return structured(
      result,
      `${result.status[0]?.toUpperCase()}${result.status.slice(1)}${by}.${result.note ? ` Note: ${result.note}` : ""}`,
    );
  });

  server.registerTool("ask_human", askHumanTool, async (input, extra) => {
    const stored = await askAndWait(
      context,
      {
        tool: "ask_human",
        request: questionRequest({
          prompt: input.prompt,
          ...(input.schema ? { schema: input.schema } : {}),
          expiresInSeconds: input.expires_in_seconds ?? defaultExpirySeconds(),
        }),
        callKey: input.idempotency_key,
        sameness: { ...input, expires_in_seconds: undefined },
        keyField: "idempotency_key",
      },
      extra,
    );
    const result = questionResult(stored, await answererOf(context.db, stored));
    const summary = result.answered ? JSON.stringify(result.data ?? {}) : `Not answered: ${result.status}.`;
    return structured(result, summary);
  });
}
