import { isToolnexusError } from "toolnexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStubLlmServer, type StubLlmServer } from "@/lib/toolnexus/testing";
import { createAgentToolkit } from "./create-agent-toolkit";
import { AGENT_SYSTEM_PROMPT, getAgentClient } from "./get-agent-client";
import { type ModelConfig, readModelConfig } from "./model-config";

let server: StubLlmServer;

beforeAll(async () => {
  // A model that deploys to staging, then sums up once the tool result is in its transcript.
  server = await createStubLlmServer(({ body }) =>
    JSON.stringify(body).includes("Deployed api v2.0 to staging")
      ? { text: "Staging is on v2.0." }
      : {
          toolCalls: [{ name: "deploy", args: { service: "api", version: "v2.0", environment: "staging" } }],
        },
  );
});

afterAll(async () => {
  await server.close();
});

describe("getAgentClient with a real model endpoint", () => {
  it.each([
    ["openai", "openai"],
    ["anthropic", "anthropic"],
    ["ai-sdk-openai-compatible", "openai"],
    ["ai-sdk-anthropic", "anthropic"],
  ] as const)("drives the demo tools through %s", async (provider, style) => {
    server.requests.length = 0;
    const config: ModelConfig = {
      provider,
      model: "stub-model",
      apiKey: "sk-test",
      baseUrl: server.baseUrl(style),
    };
    const client = getAgentClient({ config });
    const toolkit = await createAgentToolkit({ userId: "u1", runId: "run-1" });
    try {
      const result = await client.run("deploy api v2.0 to staging", { toolkit });
      expect(result.status).toBe("done");
      expect(result.text).toBe("Staging is on v2.0.");
      expect(result.toolCalls[0]?.output).toMatch(/^Deployed api v2\.0 to staging/);
    } finally {
      await toolkit.close();
    }
    expect(server.requests).toHaveLength(2);
    const first = server.requests[0]!;
    expect(first.style).toBe(style);
    expect(first.body.model).toBe("stub-model");
    expect(JSON.stringify(first.body)).toContain(AGENT_SYSTEM_PROMPT);
    const key = style === "openai" ? first.headers.authorization : first.headers["x-api-key"];
    expect(key).toBe(style === "openai" ? "Bearer sk-test" : "sk-test");
  });

  it("uses the offline demo model by default", async () => {
    const client = getAgentClient({ config: readModelConfig({}) });
    expect(client.model).toBe("toolnexus-demo");
    const result = await client.run("help");
    expect(result.text).toMatch(/^I'm the offline demo model/);
  });
});

describe("readModelConfig", () => {
  it("reads a provider, model, key and base URL", () => {
    expect(
      readModelConfig({
        TOOLNEXUS_MODEL_PROVIDER: "anthropic",
        TOOLNEXUS_MODEL: "claude-x",
        TOOLNEXUS_API_KEY: "k",
        TOOLNEXUS_BASE_URL: "http://127.0.0.1:9/v1",
      }),
    ).toEqual({ provider: "anthropic", model: "claude-x", apiKey: "k", baseUrl: "http://127.0.0.1:9/v1" });
  });

  it("reads the demo model's pause between text deltas, none by default", () => {
    expect(readModelConfig({})).toEqual({ provider: "demo", model: "toolnexus-demo", deltaDelayMs: 0 });
    expect(readModelConfig({ TOOLNEXUS_DEMO_DELTA_MS: "120" })).toMatchObject({ deltaDelayMs: 120 });
  });

  it.each([
    [{ TOOLNEXUS_MODEL_PROVIDER: "gpt" }, "config:invalid", /must be one of/],
    [{ TOOLNEXUS_DEMO_DELTA_MS: "soon" }, "config:invalid", /TOOLNEXUS_DEMO_DELTA_MS/],
    [{ TOOLNEXUS_DEMO_DELTA_MS: "5000" }, "config:invalid", /TOOLNEXUS_DEMO_DELTA_MS/],
    [
      { TOOLNEXUS_MODEL_PROVIDER: "openai", TOOLNEXUS_API_KEY: "k" },
      "config:invalid",
      /TOOLNEXUS_MODEL is required/,
    ],
    [
      { TOOLNEXUS_MODEL_PROVIDER: "openai", TOOLNEXUS_MODEL: "m" },
      "config:missing_api_key",
      /TOOLNEXUS_API_KEY/,
    ],
    [
      { TOOLNEXUS_MODEL_PROVIDER: "ai-sdk-openai-compatible", TOOLNEXUS_MODEL: "m", TOOLNEXUS_API_KEY: "k" },
      "config:invalid",
      /TOOLNEXUS_BASE_URL is required/,
    ],
    [
      {
        TOOLNEXUS_MODEL_PROVIDER: "openai",
        TOOLNEXUS_MODEL: "m",
        TOOLNEXUS_API_KEY: "k",
        TOOLNEXUS_BASE_URL: "nope",
      },
      "config:invalid",
      /not a URL/,
    ],
  ] as const)("refuses %j", (env, code, message) => {
    let caught: unknown;
    try {
      readModelConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(isToolnexusError(caught, code)).toBe(true);
    expect(String((caught as Error).message)).toMatch(message);
  });
});
