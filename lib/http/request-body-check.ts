import { type HttpRefusal, refusal } from "./refusal";

/** The most any request may send: forms, answers and actions are far below it. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Checks a request's body before the framework decodes it, so that oversized and malformed
 * bodies get a 4xx saying what was wrong instead of an opaque server error. Only server action
 * calls are decoded here: their non-multipart bodies are always JSON.
 */
export async function checkRequestBody(request: Request): Promise<HttpRefusal | null> {
  if (request.method === "GET" || request.method === "HEAD") return null;
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return refusal("bad_request:body_too_large");
  if (!request.headers.has("next-action")) return null;
  const type = request.headers.get("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) return null;

  const text = await request.clone().text();
  if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) return refusal("bad_request:body_too_large");
  try {
    JSON.parse(text);
  } catch (error) {
    return refusal(
      "bad_request:malformed_json",
      `The request body is not valid JSON (${(error as Error).message}).`,
    );
  }
  return null;
}
