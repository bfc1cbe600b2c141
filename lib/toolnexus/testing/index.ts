// Test-only entry: kept apart from the library's main index so production bundles never pull
// in node:http.

export { collectAll } from "./collect-all";
export {
  createStubLlmServer,
  type StubHandler,
  type StubLlmServer,
  type StubLlmServerOptions,
} from "./stub-llm-server";
export type {
  StubDropReply,
  StubErrorReply,
  StubRawSseReply,
  StubReply,
  StubRequest,
  StubStyle,
  StubToolCall,
  StubTurnReply,
} from "./stub-reply";
export { thrownCode } from "./thrown-code";
