import { ToolnexusError } from "toolnexus";
import { z } from "zod";

type Env = Record<string, string | undefined>;

/**
 * Which model drives the agent, read from the environment. `demo` (the default) needs no key;
 * `openai`/`anthropic` speak those wire formats directly, the `ai-sdk-*` ones go through the
 * Vercel AI SDK providers so any OpenAI-compatible server or Anthropic works the same way.
 */
export type ModelConfig =
  | { provider: "demo"; model: string; deltaDelayMs: number }
  | {
      provider: "openai" | "anthropic" | "ai-sdk-openai-compatible" | "ai-sdk-anthropic";
      model: string;
      baseUrl?: string;
      apiKey: string;
    };

const providerSchema = z.enum([
  "demo",
  "openai",
  "anthropic",
  "ai-sdk-openai-compatible",
  "ai-sdk-anthropic",
]);

const deltaDelaySchema = z.coerce.number().int().min(0).max(2000);

/** Pause between the demo model's text deltas, so streaming can be watched (and tested) live. */
function readDeltaDelay(env: Env): number {
  const raw = env.TOOLNEXUS_DEMO_DELTA_MS?.trim();
  if (!raw) return 0;
  const parsed = deltaDelaySchema.safeParse(raw);
  if (!parsed.success)
    throw new ToolnexusError("config:invalid", `TOOLNEXUS_DEMO_DELTA_MS must be 0–2000 ms; got "${raw}"`);
  return parsed.data;
}

export function readModelConfig(env: Env = process.env): ModelConfig {
  const rawProvider = env.TOOLNEXUS_MODEL_PROVIDER?.trim() || "demo";
  const provider = providerSchema.safeParse(rawProvider);
  if (!provider.success) {
    throw new ToolnexusError(
      "config:invalid",
      `TOOLNEXUS_MODEL_PROVIDER must be one of ${providerSchema.options.join(", ")}; got "${rawProvider}"`,
    );
  }
  if (provider.data === "demo")
    return { provider: "demo", model: "toolnexus-demo", deltaDelayMs: readDeltaDelay(env) };

  const model = env.TOOLNEXUS_MODEL?.trim();
  if (!model) throw new ToolnexusError("config:invalid", `TOOLNEXUS_MODEL is required for ${provider.data}`);
  const apiKey = env.TOOLNEXUS_API_KEY?.trim();
  if (!apiKey)
    throw new ToolnexusError("config:missing_api_key", `TOOLNEXUS_API_KEY is required for ${provider.data}`);
  const baseUrl = env.TOOLNEXUS_BASE_URL?.trim() || undefined;
  if (provider.data === "ai-sdk-openai-compatible" && !baseUrl) {
    throw new ToolnexusError("config:invalid", "TOOLNEXUS_BASE_URL is required for ai-sdk-openai-compatible");
  }
  if (baseUrl && !z.url().safeParse(baseUrl).success) {
    throw new ToolnexusError("config:invalid", `TOOLNEXUS_BASE_URL is not a URL: ${baseUrl}`);
  }
  return { provider: provider.data, model, apiKey, ...(baseUrl ? { baseUrl } : {}) };
}

/** What the UI shows about the model; the demo is always labelled as such. */
export function describeModel(config: ModelConfig): { demo: boolean; label: string } {
  return config.provider === "demo"
    ? { demo: true, label: "Offline demo model" }
    : { demo: false, label: `${config.model} (${config.provider})` };
}
