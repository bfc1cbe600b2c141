export { type A2AWaitForOptions, createA2AWaitFor } from "./a2a/a2a-wait-for";
export {
  type AnthropicToolSchema,
  type GeminiToolSchema,
  type OpenAiToolSchema,
  sanitize,
  toAnthropic,
  toGemini,
  toOpenAI,
} from "./adapters";
export {
  type AddressGuard,
  type BuiltinsConfig,
  type BuiltinToolsOptions,
  builtinsEnabled,
  createBuiltinTools,
  selectBuiltins,
} from "./builtins";
export {
  canonicalJson,
  createCheckpoint,
  type VerifiedCheckpoint,
  verifyCheckpoint,
} from "./checkpoint";
export {
  type ClientOptions,
  createClient,
  createClientFromDriver,
  createInProcessClient,
  type InProcessClientOptions,
} from "./client";
export {
  type AskOptions,
  type ConversationOptions,
  type ConversationStore,
  InMemoryConversationStore,
} from "./conversations";
export { defineTool, type ToolDefinition } from "./define-tool";
export { createAiSdkDriver } from "./drivers/ai-sdk/ai-sdk-driver";
export { createHttpDriver, type HttpDriverOptions, type WireStyle } from "./drivers/http/http-driver";
export type {
  InProcessCompletion,
  InProcessCompletionGenerate,
  InProcessRequest,
} from "./drivers/in-process/in-process-client-driver";
export {
  createInProcessDriver,
  type InProcessDriverOptions,
  type InProcessGenerate,
  type InProcessPart,
  type InProcessReply,
  type InProcessToolCall,
} from "./drivers/in-process/in-process-driver";
export type { ErrorInfo, ErrorTier, RetryOptions } from "./drivers/with-retries";
export * from "./errors";
export { defaultDecline } from "./execute-turn";
export { createInboxWaitFor, type InboxWaitForOptions, inboxIdempotencyKey } from "./inbox-wait-for";
export {
  type McpAuthorization,
  type McpHttpServerConfig,
  type McpOAuthSettings,
  type McpServerConfig,
  type McpServerEntry,
  type McpStdioServerConfig,
  type McpToolFilter,
  parseMcpServer,
} from "./mcp/config";
export {
  expandEnvHeaders,
  loadMcpConfig,
  type McpConfigInput,
  type McpConfigProblem,
  type ParsedMcpConfig,
  parseMcpConfig,
  validateMcpConfig,
} from "./mcp/config-file";
export {
  answerToElicitResult,
  type ElicitationMeta,
  elicitationAnswerProblem,
  elicitationToRequest,
} from "./mcp/elicitation";
export { connectMcpHub, createMcpHub, type McpHub, type McpServerStatus, mcpToolName } from "./mcp/hub";
export {
  type LoadMcpOptions,
  listMcpTools,
  loadMcp,
  type McpInventory,
  type McpSource,
  type McpToolInfo,
} from "./mcp/load";
export type { McpFailure, McpHubOptions } from "./mcp/server";
export { authRequired, nextRequestId, type PendingInput, pending, pendingOf } from "./pending";
export { toProviderMessages } from "./provider-messages";
export { createQuestionTool, formatQuestions, type Question } from "./question-tool";
export { DEFAULT_MAX_TURNS } from "./run-loop";
export { createToolkit, type McpStatus, type Toolkit, type ToolkitOptions } from "./toolkit";
export type * from "./types";
