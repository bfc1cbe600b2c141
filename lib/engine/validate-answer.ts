import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import {
  ANSWER_DATA_MAX_BYTES,
  answerDataBytes,
  DECLINE_REASON_MAX_CHARS,
  formatKilobytes,
} from "@/lib/domain/answer-limits";
import { AppError, type FieldIssue } from "@/lib/errors";
import { jsonDepthIssue } from "@/lib/http/strict-json";
import type { Answer, Request } from "@/lib/toolnexus/types";
import type { SubmittedAnswer } from "./engine-types";

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

/** Refuses answers over the limits in answer-limits.ts, before anything looks at their content. */
function checkLimits(submitted: SubmittedAnswer): void {
  const reason = submitted.ok ? undefined : submitted.data?.reason;
  if (typeof reason === "string" && [...reason].length > DECLINE_REASON_MAX_CHARS) {
    throw new AppError("bad_request:input", {
      message: `A reason can be at most ${DECLINE_REASON_MAX_CHARS.toLocaleString("en")} characters; this one has ${[...reason].length.toLocaleString("en")}.`,
      issues: [{ path: "/data/reason", message: `must be at most ${DECLINE_REASON_MAX_CHARS} characters` }],
    });
  }
  // Before anything walks the data: a value nested thousands deep overflows recursive walkers.
  const deep = jsonDepthIssue(submitted.data);
  if (deep) {
    const path = `/data${deep.path === "/" ? "" : deep.path}`;
    throw new AppError("bad_request:input", {
      message: `An answer's data ${deep.message} (at ${path}).`,
      issues: [{ path, message: deep.message }],
    });
  }
  const bytes = answerDataBytes(submitted.data);
  if (bytes > ANSWER_DATA_MAX_BYTES) {
    throw new AppError("bad_request:input", {
      message: `An answer can be at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)}; this one is ${formatKilobytes(bytes)}.`,
      issues: [{ path: "/data", message: `must be at most ${formatKilobytes(ANSWER_DATA_MAX_BYTES)}` }],
    });
  }
}

/**
 * Checks a decision against the request it answers and returns the wire Answer to store. It
 * must be within the answer limits; an acceptance must satisfy `data.schema` when the request
 * has one. The decision's shape is the caller's to parse from its own transport; this is the
 * check only the request can inform.
 */
export function validateAnswer({
  request,
  answer: submitted,
}: {
  request: Request;
  answer: SubmittedAnswer;
}): Answer {
  checkLimits(submitted);
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

/**
 * Refuses a `data.schema` nobody could answer: one ajv cannot compile. Requests made through
 * the HTTP API are checked when they are made, so the person answering never meets the error.
 */
export function checkAnswerSchema(data: Record<string, unknown> | undefined): void {
  const schema = data?.schema;
  if (schema === undefined) return;
  const issue = (message: string) =>
    new AppError("bad_request:input", {
      message: `data.schema is not a usable JSON Schema: ${message}`,
      issues: [{ path: "/data/schema", message }],
    });
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw issue("must be an object");
  try {
    validatorFor(schema as Record<string, unknown>);
  } catch (error) {
    throw issue((error as Error).message);
  }
}
