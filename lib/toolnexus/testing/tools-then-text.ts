import type { StubLlmFixture } from "./use-stub-llm-server";
import { wireToolResults } from "./wire-transcript";

/** First request: call `calls`; once tool results came back: answer `text`. */
export function toolsThenText(
  stub: StubLlmFixture,
  calls: Array<{ id: string; name: string }>,
  text: (results: string[]) => string,
) {
  stub.server.requests.length = 0;
  stub.reply = (request) => {
    const results = wireToolResults(request);
    return results.length === 0
      ? { toolCalls: calls }
      : { text: text(results.map(([, content]) => content)) };
  };
}
