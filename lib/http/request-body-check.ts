import { MAX_BODY_BYTES, readBodyWithin } from "./body-limit.mjs";
import { type HttpRefusal, refusal } from "./refusal";
import { parseStrictJson } from "./strict-json";

// Reading a request's body, once for everything that takes one: counted while it is read
// (a declared length is only a claim, and a chunked body declares none), and, for JSON, parsed
// strictly (lib/http/strict-json.ts). Every refusal is the app's error shape. See ADR 0057.

export type BodyRead<T> = { status: "ok"; value: T } | { status: "refused"; refusal: HttpRefusal };

/** The body as text, or a 413 once it passes the limit; reading stops there. */
export async function readBodyText(request: Request): Promise<BodyRead<string>> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    return { status: "refused", refusal: refusal("bad_request:body_too_large") };
  }
  if (request.body === null) return { status: "ok", value: "" };
  const read = await readBodyWithin(request.body);
  if (read.status === "too_large")
    return { status: "refused", refusal: refusal("bad_request:body_too_large") };
  return { status: "ok", value: new TextDecoder().decode(read.bytes) };
}

/** JSON text as the app accepts it, or a 400 that says what is wrong and where. */
export function parseJsonBody(text: string): BodyRead<unknown> {
  const parsed = parseStrictJson(text);
  if (parsed.status === "ok") return parsed;
  const where = parsed.issue.path === "/" ? "" : ` (at ${parsed.issue.path})`;
  return {
    status: "refused",
    refusal: refusal("bad_request:input", `The request body ${parsed.detail}${where}.`, [parsed.issue]),
  };
}

/** A JSON body: read within the limit, then parsed strictly. What a route that takes JSON calls. */
export async function readJsonBody(request: Request): Promise<BodyRead<unknown>> {
  const text = await readBodyText(request);
  return text.status === "ok" ? parseJsonBody(text.value) : text;
}

/**
 * The proxy's check of every request's body before the framework decodes it, so that
 * oversized and malformed bodies get a 4xx saying what was wrong instead of an opaque server
 * error. It reads a copy; the route reads the body itself. Only server action calls are parsed
 * here: their non-multipart bodies are always JSON.
 */
export async function checkRequestBody(request: Request): Promise<HttpRefusal | null> {
  if (request.body === null && !request.headers.has("content-length")) return null;
  const type = request.headers.get("content-type") ?? "";
  const jsonAction = request.headers.has("next-action") && !type.startsWith("multipart/form-data");
  const read = jsonAction ? await readJsonBody(request.clone()) : await readBodyText(request.clone());
  return read.status === "refused" ? read.refusal : null;
}
