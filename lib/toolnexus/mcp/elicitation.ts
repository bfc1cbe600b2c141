import { randomUUID } from "node:crypto";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { canonicalJson } from "../checkpoint";
import { nextRequestId, pending } from "../pending";
import type { Answer, Request, ToolResult } from "../types";

/** One question a server put to the user, in either mode; `path` says how it arrived. */
export type Ask =
  | { mode: "form"; message: string; schema: Record<string, unknown> }
  | { mode: "url"; message: string; url: string; elicitationId: string; path: "request" | "error" };

export type Reply = ElicitResult;

/** An ask and the reply it got, carried on later requests so a restarted host can replay them. */
export interface Answered {
  mode: Ask["mode"];
  message: string;
  schema?: Record<string, unknown>;
  path?: "request" | "error";
  reply: Reply;
}

/** What rides in `request.data.mcp` of every elicitation request this library makes. */
export interface ElicitationMeta {
  server: string;
  tool: string;
  mode: Ask["mode"];
  elicitationId?: string;
  path?: "request" | "error";
  /** Replies already given earlier in the same tool call, oldest first. */
  earlier: Answered[];
  /** Why the previous answer to this same question was not passed on. */
  refused?: string;
}

export function askOf(params: ElicitRequest["params"]): Ask {
  if (params.mode === "url") {
    return {
      mode: "url",
      message: params.message,
      url: params.url,
      elicitationId: params.elicitationId,
      path: "request",
    };
  }
  return { mode: "form", message: params.message, schema: params.requestedSchema as Record<string, unknown> };
}

/** Repeated asks are recognised by what they ask, never by ids the server mints per call. */
export function askKey(ask: Pick<Answered, "mode" | "message" | "schema" | "path">): string {
  return ask.mode === "form"
    ? canonicalJson(["form", ask.message, ask.schema ?? {}])
    : canonicalJson(["url", ask.path ?? "request", ask.message]);
}

export function answeredOf(ask: Ask, reply: Reply): Answered {
  return ask.mode === "form"
    ? { mode: "form", message: ask.message, schema: ask.schema, reply }
    : { mode: "url", message: ask.message, path: ask.path, reply };
}

/** The suspension contract's Request for an ask: a form is `input` (its schema in `data.schema`), a URL `authorization`. */
function requestOfAsk(ask: Ask, id: string): Request {
  return ask.mode === "form"
    ? { id, kind: "input", prompt: ask.message, data: { schema: ask.schema } }
    : { id, kind: "authorization", prompt: ask.message, url: ask.url };
}

/** An MCP elicitation's parameters as the Request a host's `waitFor` or inbox understands. */
export function elicitationToRequest(params: ElicitRequest["params"]): Request {
  const ask = askOf(params);
  const request = requestOfAsk(ask, nextRequestId());
  // A form without a schema asks for nothing to fill in.
  if (ask.mode === "form" && ask.schema === undefined) delete request.data;
  return request;
}

/** An Answer as MCP's reply: ok → accept (content = answer.data), "declined" → decline, else cancel. */
export function answerToElicitResult(answer: Answer): ElicitResult {
  if (answer.ok)
    return { action: "accept", content: (answer.data ?? {}) as NonNullable<ElicitResult["content"]> };
  return { action: answer.reason === "declined" ? "decline" : "cancel" };
}

/** The Request for an ask, carrying what a restarted host needs to replay it (see ADR 0017). */
export function elicitationPending(
  ask: Ask,
  meta: Omit<ElicitationMeta, "mode" | "elicitationId" | "path">,
  marks: { continues?: string },
): ToolResult {
  const mcp: ElicitationMeta = { ...meta, mode: ask.mode };
  if (meta.refused === undefined) delete mcp.refused;
  const request = requestOfAsk(ask, `mcp-${randomUUID()}`);
  request.data =
    ask.mode === "form"
      ? { ...request.data, mcp }
      : { mcp: { ...mcp, elicitationId: ask.elicitationId, path: ask.path } };
  const result = pending(request);
  result.metadata = { ...result.metadata, resumeOnDecline: true };
  if (marks.continues !== undefined) result.metadata.continues = marks.continues;
  return result;
}

/** Reads back `data.mcp` of a request this library made for `server`/`tool`, else undefined. */
export function metaOf(
  request: Request | undefined,
  server: string,
  tool: string,
): ElicitationMeta | undefined {
  const mcp = request?.data?.mcp as Partial<ElicitationMeta> | undefined;
  if (!mcp || mcp.server !== server || mcp.tool !== tool) return undefined;
  if (mcp.mode !== "form" && mcp.mode !== "url") return undefined;
  return { ...mcp, earlier: Array.isArray(mcp.earlier) ? mcp.earlier : [] } as ElicitationMeta;
}

/** Rebuilds the ask a request was made for (so a replay can match it). */
export function askOfRequest(request: Request, meta: ElicitationMeta): Ask {
  if (meta.mode === "form") {
    const schema = request.data?.schema;
    return { mode: "form", message: request.prompt, schema: (schema ?? {}) as Record<string, unknown> };
  }
  return {
    mode: "url",
    message: request.prompt,
    url: request.url ?? "",
    elicitationId: meta.elicitationId ?? "",
    path: meta.path ?? "request",
  };
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = canonicalJson(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    // A server minting a schema per call must not grow this without bound.
    if (validators.size >= 256) validators.delete(validators.keys().next().value as string);
    validators.set(key, validate);
  }
  return validate;
}

/**
 * Why `data` does not fit a form elicitation's schema, or undefined when it does. Hosts can
 * call it before storing an answer; the library calls it again before telling the server.
 */
export function elicitationAnswerProblem(schema: Record<string, unknown>, data: unknown): string | undefined {
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema);
  } catch (error) {
    return `the requested schema cannot be checked (${error instanceof Error ? error.message : String(error)})`;
  }
  if (validate(data ?? {})) return undefined;
  const issues = (validate.errors ?? []).map(
    (e) => `${e.instancePath || "(answer)"} ${e.message ?? "is invalid"}`,
  );
  return issues.length > 0 ? issues.join("; ") : "does not fit the requested schema";
}

/**
 * The suspension contract's answer as MCP's reply: ok → accept (form content = answer.data), "declined" →
 * decline, anything else (cancelled, expired) → cancel. `problem` is set when an acceptance
 * does not fit the requested schema: the server must not see it.
 */
export function replyOf(ask: Ask, answer: Answer): { reply: Reply; problem?: string } {
  const reply = answerToElicitResult(answer);
  if (reply.action !== "accept") return { reply };
  if (ask.mode === "url") return { reply: { action: "accept" } };
  const problem = elicitationAnswerProblem(ask.schema, reply.content);
  return problem ? { reply: { action: "cancel" }, problem } : { reply };
}
