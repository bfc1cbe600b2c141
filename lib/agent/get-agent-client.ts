import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  type Client,
  createClient,
  createClientFromDriver,
  createInProcessDriver,
  type LoopOptions,
} from "toolnexus";
import { createDemoGenerate, DEMO_MODEL_NAME } from "./demo-model";
import { type ModelConfig, readModelConfig } from "./model-config";

const DEFAULT_BASE_URLS = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
} as const;

export const AGENT_SYSTEM_PROMPT =
  "You are the toolnexus assistant. Use the tools to act; when a tool needs approval or more " +
  "details, it will ask a person and you will get the result. Report what actually happened, " +
  "including any reason a request was declined.";

/**
 * The one switch between the offline demo model and a real one. Loop options (hooks,
 * checkpoint key, decline wording) come from the caller so the engine stays in charge of them.
 */
export function getAgentClient(options: { config?: ModelConfig; loop?: LoopOptions } = {}): Client {
  const config = options.config ?? readModelConfig();
  const loop: LoopOptions = { systemPrompt: AGENT_SYSTEM_PROMPT, ...options.loop };

  switch (config.provider) {
    case "demo":
      return createClientFromDriver(
        createInProcessDriver({
          model: DEMO_MODEL_NAME,
          generate: createDemoGenerate({ deltaDelayMs: config.deltaDelayMs }),
        }),
        loop,
      );
    case "openai":
    case "anthropic":
      return createClient({
        ...loop,
        style: config.provider,
        model: config.model,
        apiKey: config.apiKey,
        baseUrl: config.baseUrl ?? DEFAULT_BASE_URLS[config.provider],
      });
    case "ai-sdk-openai-compatible": {
      const provider = createOpenAICompatible({
        name: "toolnexus-openai-compatible",
        baseURL: config.baseUrl!,
        apiKey: config.apiKey,
        includeUsage: true,
      });
      return createClient({ ...loop, languageModel: provider.chatModel(config.model) });
    }
    case "ai-sdk-anthropic": {
      const provider = createAnthropic({
        apiKey: config.apiKey,
        ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      });
      return createClient({ ...loop, languageModel: provider.languageModel(config.model) });
    }
  }
}
