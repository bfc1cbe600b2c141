import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { z } from "zod";
import { AppError, type FieldIssue } from "@/lib/errors";
import type { Answer, Request } from "@/lib/toolnexus/types";

// What a person may submit for a parked request. `expired` and `cancelled` are reserved for
// the system, so a submitted decline is always "declined".
export const submittedAnswerSchema = z
  .object({
    ok: z.boolean(),
    data: z.record(z.string(), z.unknown()).optional(),
    reason: z.literal("declined").optional(),
  })
  .strict();

export type SubmittedAnswer = z.infer<typeof submittedAnswerSchema>;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

// Tools reuse a handful of schemas, so compiled validators are cached by their JSON text;
// the cap keeps a misbehaving tool that mints a new schema per call from growing memory.
const compiled = new Map<string, ValidateFunction>();
const maxCompiled = 256;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (compiled.size >= maxCompiled) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, validate);
  }
  return validate;
}

function schemaOf(request: Request): Record<string, unknown> | undefined {
  const schema = request.data?.schema;
  return schema && typeof schema === "object" && !Array.isArray(schema)
    ? (schema as Record<string, unknown>)
    : undefined;
}

/**
 * Checks a submitted answer against the request it answers and returns the §10 Answer to
 * store. An acceptance must satisfy `data.schema` when the request has one.
 */
export function validateAnswer({ request, answer }: { request: Request; answer: unknown }): Answer {
  const parsed = submittedAnswerSchema.safeParse(answer);
  if (!parsed.success) {
    throw new AppError("bad_request:input", {
      issues: parsed.error.issues.map((issue) => ({
        path: `/${issue.path.join("/")}`,
        message: issue.message,
      })),
    });
  }
  const submitted = parsed.data;
  if (!submitted.ok) {
    // A decline's data (typically the reviewer's reason) is free-form: `data.schema` describes
    // what an approval must supply, not why someone said no.
    const decline: Answer = { id: request.id, ok: false, reason: "declined" };
    if (submitted.data !== undefined) decline.data = submitted.data;
    return decline;
  }

  const schema = schemaOf(request);
  if (schema) {
    let validate: ValidateFunction;
    try {
      validate = validatorFor(schema);
    } catch (cause) {
      // The tool shipped a schema ajv cannot compile: nobody can satisfy it, and that is not
      // the submitter's fault.
      throw new AppError("internal:unexpected", { cause });
    }
    const data = submitted.data ?? {};
    if (!validate(data)) {
      const issues: FieldIssue[] = (validate.errors ?? []).map((error) => ({
        path: error.instancePath || "/",
        message: error.message ?? "is invalid",
      }));
      throw new AppError("invalid:answer", { issues });
    }
    return { id: request.id, ok: true, data };
  }
  return submitted.data === undefined
    ? { id: request.id, ok: true }
    : { id: request.id, ok: true, data: submitted.data };
}
