import { z } from "zod";
import { ANSWER_DATA_MAX_BYTES, answerDataBytes, formatKilobytes } from "@/lib/domain/answer-limits";

// The shapes of /api/v1, once: the routes parse with them and the OpenAPI document is generated
// from them (`z.toJSONSchema`), so the document cannot describe a call the routes refuse.

/** The named shapes, which the OpenAPI document lists under `components.schemas`. */
export const apiComponents = z.registry<{ id: string; description?: string }>();

/** What a request's `data` (its JSON Schema included) may weigh: the same bound as an answer's. */
const dataObject = z
  .record(z.string(), z.unknown())
  .refine((data) => answerDataBytes(data) <= ANSWER_DATA_MAX_BYTES, {
    message: `must be at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)} as JSON`,
  });

export const audienceSchema = z
  .enum(["owner", "reviewers"])
  .describe("Who must answer: the token's owner, or anyone with the reviewer role.");

export const createRequestBody = z
  .object({
    kind: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,49}$/, "must be 1–50 lower-case letters, digits, _ or -")
      .describe("approval, input, question, or a kind of your own; authorization is refused."),
    prompt: z.string().trim().min(1, "must not be empty").max(2_000).describe("What the person is asked."),
    url: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .max(2_000)
      .optional()
      .describe("A link the person may follow."),
    data: dataObject
      .optional()
      .describe("Anything the person needs; `data.schema` is a JSON Schema the answer's data must satisfy."),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an RFC 3339 date-time, e.g. 2026-12-01T12:00:00Z" })
      .optional()
      .describe("When the request expires unanswered; it is then answered { ok: false, reason: expired }."),
    audience: audienceSchema
      .optional()
      .describe("Who must answer; by default reviewers for approvals and the owner for everything else."),
  })
  .strict()
  .register(apiComponents, { id: "CreateRequest" });

export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, "must be 1–200 visible ASCII characters")
  .describe("A retried create with the same key and body returns the same request.");

export const answerSchema = z
  .object({
    id: z.string().describe("The request's id."),
    ok: z.boolean(),
    data: z.record(z.string(), z.unknown()).optional(),
    reason: z.enum(["declined", "cancelled", "expired"]).optional().describe("Only when ok is false."),
  })
  .register(apiComponents, {
    id: "Answer",
    description: "The suspension contract's Answer (docs/suspension-contract.md).",
  });

export const apiRequestSchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    prompt: z.string(),
    url: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    expiresAt: z.string().optional(),
    audience: audienceSchema,
    status: z.enum(["open", "answered", "expired", "cancelled"]),
    createdAt: z.string(),
    resolvedAt: z.string().optional().describe("When it left open; absent while open."),
    answer: answerSchema.optional().describe("Absent while open."),
  })
  .register(apiComponents, { id: "ApiRequest" });

export const requestListSchema = z
  .object({
    requests: z.array(apiRequestSchema),
    next: z.string().nullable().describe("Pass as `after` for the next page; null on the last."),
  })
  .register(apiComponents, { id: "RequestList" });

export const errorSchema = z
  .object({
    code: z.string().describe("A stable code, e.g. bad_request:input, unauthorized:token."),
    status: z.number().int(),
    message: z.string(),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .describe("Per field, as JSON pointers."),
  })
  .register(apiComponents, { id: "Error" });

export const requestIdParams = z.object({ id: z.string().min(1).max(200) });

export const MAX_WAIT_SECONDS = 60;

export const readRequestQuery = z.object({
  wait: z.coerce
    .number({ message: "must be a number of seconds" })
    .min(0)
    .max(MAX_WAIT_SECONDS, `must be at most ${MAX_WAIT_SECONDS} seconds`)
    .optional()
    .describe(`Wait up to this many seconds (at most ${MAX_WAIT_SECONDS}) for the request to leave open.`),
});

export const listRequestsQuery = z.object({
  status: z.enum(["open", "answered", "expired", "cancelled"]).optional(),
  after: z.string().min(1).max(200).optional().describe("The `next` of the page before."),
  limit: z.coerce.number().int().min(1).max(100).optional().describe("At most 100; 20 by default."),
});

export type CreateRequestBody = z.infer<typeof createRequestBody>;
export type ApiRequest = z.infer<typeof apiRequestSchema>;
