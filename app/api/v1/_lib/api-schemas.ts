import { z } from "zod";
import { escalationLadderSchema } from "@/app/_lib/escalation-ladder";
import { ANSWER_DATA_MAX_BYTES, answerDataBytes, formatKilobytes } from "@/lib/domain/answer-limits";
import { KNOWN_REQUEST_KINDS, REQUEST_KINDS } from "@/lib/domain/request-kinds";
import { REQUEST_EXPIRY_HORIZON_DAYS } from "@/lib/domain/request-limits";

// The shapes of /api/v1, once: the routes parse with them and the OpenAPI document is generated
// from them (`z.toJSONSchema`), so the document cannot describe a call the routes refuse.
// Every rule is written so that it reaches the document: a pattern rather than a refine where
// one can say it, and an `x-` keyword (ADR 0058) for the two a JSON Schema cannot state.

/** The named shapes, which the OpenAPI document lists under `components.schemas`. */
export const apiComponents = z.registry<{ id: string; description?: string }>();

/** What a request's `data` (its JSON Schema included) may weigh: the same bound as an answer's. */
const dataObject = z
  .record(z.string(), z.unknown())
  .refine((data) => answerDataBytes(data) <= ANSWER_DATA_MAX_BYTES, {
    message: `must be at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)} as JSON`,
  })
  .meta({ "x-maxJsonBytes": ANSWER_DATA_MAX_BYTES });

// The kinds a program may not ask for (a sign-in needs a tool's OAuth flow), as a pattern the
// document carries; the names are lower-case letters, so they need no escaping.
const NOT_BY_API = KNOWN_REQUEST_KINDS.filter((kind) => !REQUEST_KINDS[kind].creatableByApi);
const NOT_BY_API_PATTERN = new RegExp(`^(?!(?:${NOT_BY_API.join("|")})$)`);

/** At most `max` characters as a JSON Schema counts them (code points, not UTF-16 units). */
function maxCharacters<S extends z.ZodString | z.ZodURL>(schema: S, max: number): S {
  return schema
    .refine((text) => [...text].length <= max, { message: `must be at most ${max} characters` })
    .meta({ maxLength: max }) as S; // refine and meta return the schema they were called on
}

// NUL (which PostgreSQL's text refuses) and the bidirectional embedding, override and isolate
// controls, which can make the text a reviewer reads differ from the text stored (ADR 0058).
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters refused.
const PLAIN_TEXT = /^[^\u0000\u202A-\u202E\u2066-\u2069]*$/;
const PLAIN_TEXT_MESSAGE =
  "must not contain NUL or bidirectional control characters (U+202A–U+202E, U+2066–U+2069)";

// The authority (up to the first / ? # or \\) holds no `@`, so no user name or password.
const HTTP_URL =
  /^[hH][tT][tT][pP][sS]?:\/\/[^/?#\\@\s\u202A-\u202E\u2066-\u2069]+(?:[/?#][^\s\u202A-\u202E\u2066-\u2069]*)?$/;

/** An approval addressed to an approver group: M of its members, never the asker, must approve (ADR 0076). */
export const groupAudienceSchema = z
  .object({
    group: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "must be a group's slug: lower-case letters, digits and -")
      .describe("The approver group's slug, e.g. finance."),
    required: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(10, "must be at most 10")
      .describe("How many members must approve: 1 to 10, and no more than the members besides the asker."),
  })
  .strict()
  .register(apiComponents, {
    id: "GroupAudience",
    description: "The members of an approver group vote; the asker (the token's owner) never counts.",
  });

export const audienceSchema = z
  .union([z.enum(["owner", "reviewers"]), groupAudienceSchema])
  .describe(
    "Who must answer: the token's owner, anyone with the reviewer role, or M members of an approver group (approvals only).",
  );

/** One member's vote on a group's request. */
export const voteSchema = z
  .object({
    by: z.string().describe("The voter's email."),
    ok: z.boolean().describe("Approved (true) or declined (false)."),
    at: z.string().describe("When, RFC 3339."),
    note: z.string().optional().describe("The approver's note or the decliner's reason."),
    counts: z
      .enum(["counted", "void", "late"])
      .describe(
        "counted; void when the arguments were edited after it; late when it came after the request was settled.",
      ),
  })
  .register(apiComponents, { id: "Vote" });

/** POST /api/v1/requests/{id}/answer: the Answer without its id. */
export const answerRequestBody = z
  .object({
    ok: z.boolean().describe("Approve or answer (true), or decline (false)."),
    data: dataObject
      .optional()
      .describe("What the answer carries; for ok: true it must satisfy the request's `data.schema`."),
    reason: z
      .enum(["declined"])
      .optional()
      .describe("With ok: false only; a person's decline is always declined."),
  })
  .strict()
  .register(apiComponents, { id: "AnswerBody" });

export const createRequestBody = z
  .object({
    kind: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,49}$/, "must be 1–50 lower-case letters, digits, _ or -")
      .regex(
        NOT_BY_API_PATTERN,
        `must not be ${NOT_BY_API.join(" or ")}: sign-ins are started by the app's own tools`,
      )
      .describe(`approval, input, question, or a kind of your own; ${NOT_BY_API.join(", ")} is refused.`),
    prompt: maxCharacters(z.string(), 2_000)
      .regex(/\S/, "must not be blank")
      .regex(PLAIN_TEXT, PLAIN_TEXT_MESSAGE)
      .trim()
      .describe(
        "What the person is asked: not blank, without NUL or bidirectional controls; stored without surrounding white space.",
      ),
    url: maxCharacters(z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }), 2_000)
      .regex(
        HTTP_URL,
        "must be an http(s) URL without a user name or password, spaces or bidirectional controls",
      )
      .optional()
      .describe("A link the person may follow: http or https, with no credentials in it."),
    data: dataObject
      .optional()
      .describe(
        `Anything the person needs, at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)} as JSON; \`data.schema\` is a JSON Schema the answer's data must satisfy.`,
      ),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an RFC 3339 date-time, e.g. 2026-12-01T12:00:00Z" })
      .meta({ "x-futureWithinDays": REQUEST_EXPIRY_HORIZON_DAYS })
      .optional()
      .describe(
        `When the request expires unanswered: in the future, and at most ${REQUEST_EXPIRY_HORIZON_DAYS} days ahead. It is then answered { ok: false, reason: expired }.`,
      ),
    audience: audienceSchema
      .optional()
      .describe("Who must answer; by default reviewers for approvals and the owner for everything else."),
    escalation: escalationLadderSchema
      .optional()
      .describe(
        "For a request to reviewers or a group: what happens while nobody answers, step by step, each after a duration from when it was asked (within its expiry): remind, add a group or person, decline, expire.",
      ),
  })
  .strict()
  .register(apiComponents, { id: "CreateRequest" });

export const escalationStepViewSchema = z
  .object({
    after: z.string(),
    action: z.union([
      z.literal("remind"),
      z.literal("expire"),
      z.object({ add: z.string(), required: z.number().int().optional() }),
      z.object({ decline: z.string() }),
    ]),
    dueAt: z.string().describe("When it is due: when the request was asked, plus `after`."),
    firedAt: z.string().nullable().describe("When it fired; null until then."),
    lateMs: z
      .number()
      .int()
      .nullable()
      .describe("How long after dueAt it fired (no instance was running when it was due)."),
  })
  .register(apiComponents, { id: "EscalationStep" });

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
    required: z.number().int().describe("How many approvals settle it: M for a group, else 1."),
    votes: z.array(voteSchema).describe("Every vote on a group's request, oldest first; empty otherwise."),
    escalation: z
      .array(escalationStepViewSchema)
      .describe("The request's escalation ladder; empty without one."),
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

export const conflictSchema = errorSchema
  .extend({ request: apiRequestSchema.describe("The request as it stands: the outcome so far.") })
  .register(apiComponents, { id: "Conflict" });

export const requestIdParams = z.object({ id: z.string().min(1).max(200) });

export const MAX_WAIT_SECONDS = 60;

// Query values are text: each is parsed from exactly the form the document's pattern states
// (no exponents, hex, spaces or Infinity, which a number coercion would take).
const DECIMAL_SECONDS = /^[0-9]+(?:\.[0-9]+)?$/;
const AT_MOST_60 = /^0*(?:[0-5]?[0-9](?:\.[0-9]+)?|60(?:\.0+)?)$/;
const ONE_TO_100 = /^0*(?:[1-9][0-9]?|100)$/;

export const readRequestQuery = z.object({
  wait: z
    .string()
    .regex(DECIMAL_SECONDS, "must be decimal seconds, e.g. 30 or 2.5")
    .regex(AT_MOST_60, `must be at most ${MAX_WAIT_SECONDS} seconds`)
    .transform(Number)
    .optional()
    .describe(
      `Wait up to this many seconds (decimal, e.g. 30 or 2.5; at most ${MAX_WAIT_SECONDS}) for the request to leave open.`,
    ),
});

export const listRequestsQuery = z.object({
  status: z.enum(["open", "answered", "expired", "cancelled"]).optional(),
  after: z.string().min(1).max(200).optional().describe("The `next` of the page before."),
  limit: z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .regex(ONE_TO_100, "must be from 1 to 100")
    .transform(Number)
    .optional()
    .describe("From 1 to 100; 20 by default."),
});

export type CreateRequestBody = z.infer<typeof createRequestBody>;
export type ApiVote = z.infer<typeof voteSchema>;
export type ApiRequest = z.infer<typeof apiRequestSchema>;
