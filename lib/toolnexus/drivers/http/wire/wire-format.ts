import type { ModelInput, ModelStreamPart, ModelTurn } from "../../../types";
import type { SseEvent } from "../sse";

export interface WireRequestOptions {
  stream: boolean;
  /** Anthropic requires an output budget on every request; OpenAI ignores it. */
  maxTokens: number;
}

/** Everything that differs between provider HTTP APIs, so the driver itself stays style-free. */
export interface WireFormat {
  endpoint(baseUrl: string): string;
  headers(apiKey: string): Record<string, string>;
  body(input: ModelInput, options: WireRequestOptions): Record<string, unknown>;
  /** Throws `provider:malformed_response` when the JSON is not a response of this format. */
  parseResponse(json: unknown): ModelTurn;
  /** Ends with exactly one `turn` part; throws `provider:malformed_sse` on a broken stream. */
  decodeStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ModelStreamPart>;
}
