import { z } from "zod";
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

export const audienceSchema = z
  .enum(["owner", "reviewers"])
  .describe("Who must answer: the token's owner, or anyone with the reviewer role.");

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
    audience: z
      .enum(["owner", "reviewers", "group"])
      .describe("Who must answer: the owner, anyone with the reviewer role, or an approver group's members."),
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
export type ApiRequest = z.infer<typeof apiRequestSchema>;
