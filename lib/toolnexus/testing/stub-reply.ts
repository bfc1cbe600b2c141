import type { Usage } from "../types";

export type StubStyle = "openai" | "anthropic";

export interface StubToolCall {
  /** Generated (call_N / toolu_N) when absent. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  /** Sent verbatim as the argument text, e.g. to serve arguments that are not JSON. */
  rawArgs?: string;
}

/** A provider-neutral assistant turn; the server encodes it in the request's wire format. */
export interface StubTurnReply {
  text?: string;
  toolCalls?: StubToolCall[];
  /** Missing fields are estimated from the request; `null` leaves usage out of the reply. */
  usage?: Partial<Usage> | null;
  finishReason?: string;
}

/** Any status and body, for error injection. */
export interface StubErrorReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Written verbatim as an event stream; with `keepOpen` the response never ends on its own. */
export interface StubRawSseReply {
  sseRaw: string;
  keepOpen?: boolean;
}

/** Destroys the connection without answering: what a network failure looks like to a client. */
export interface StubDropReply {
  drop: true;
}

export type StubReply = StubTurnReply | StubErrorReply | StubRawSseReply | StubDropReply;

export interface StubRequest {
  style: StubStyle;
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** What a serializer produces: one JSON document, or already-framed SSE events. */
export type EncodedReply = { kind: "json"; body: unknown } | { kind: "sse"; events: string[] };

export interface EncodeContext {
  request: StubRequest;
  nextId: (prefix: string) => string;
}

/** Splits text into a few pieces, the way real APIs deliver it as several deltas. */
export function pieces(text: string, maxPiece: number, minPieces: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.max(1, Math.min(maxPiece, Math.ceil(chars.length / minPieces)));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

export function argumentText(call: StubToolCall): string {
  return call.rawArgs ?? JSON.stringify(call.args ?? {});
}

/** A rough four-characters-per-token estimate, so replies carry plausible, non-zero usage. */
export function usageFor(reply: StubTurnReply, request: StubRequest): Usage | null {
  if (reply.usage === null) return null;
  const promptChars =
    JSON.stringify(request.body.messages ?? "").length + String(request.body.system ?? "").length;
  const completionChars =
    (reply.text ?? "").length +
    (reply.toolCalls ?? []).reduce((n, c) => n + c.name.length + argumentText(c).length, 0);
  const promptTokens = reply.usage?.promptTokens ?? Math.max(1, Math.ceil(promptChars / 4));
  const completionTokens = reply.usage?.completionTokens ?? Math.max(1, Math.ceil(completionChars / 4));
  return {
    promptTokens,
    completionTokens,
    totalTokens: reply.usage?.totalTokens ?? promptTokens + completionTokens,
  };
}
