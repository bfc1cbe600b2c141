import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { createClient } from "./client";
import { defineTool } from "./define-tool";
import { isToolnexusError } from "./errors";
import { createScriptedDriver } from "./testing/scripted-driver";
import { toolsThenText } from "./testing/tools-then-text";
import { useStubLlmServer } from "./testing/use-stub-llm-server";
import { createToolkit } from "./toolkit";

const stub = useStubLlmServer();

describe("createClient configuration", () => {
  it("throws typed errors synchronously for an unknown style", () => {
    const attempt = (options: Record<string, unknown>) => {
      try {
        createClient({ baseUrl: "http://127.0.0.1:9", model: "m", ...options } as never);
      } catch (error) {
        return isToolnexusError(error) ? error.code : String(error);
      }
      return "created";
    };
    expect(attempt({ style: "openai" })).toBe("created");
    expect(attempt({ style: "cohere", apiKey: "k" })).toBe("config:unknown_style");
    expect(attempt({ style: "openai", apiKey: "k" })).toBe("created");
  });

  it("uses a given driver as-is", async () => {
    const driver = createScriptedDriver([{ text: "from the driver" }]);
    const result = await createClient({ driver, systemPrompt: "sys" }).run("hi");
    expect(result.text).toBe("from the driver");
    expect(driver.inputs[0]!.system).toBe("sys");
  });

  it("drives the loop with an AI SDK language model", async () => {
    toolsThenText(stub, [{ id: "c1", name: "ping" }], (results) => `model saw ${results.join("")}`);
    const provider = createOpenAICompatible({
      name: "stub",
      baseURL: stub.server.baseUrl("openai"),
      apiKey: "k",
    });
    const ping = defineTool({ name: "ping", description: "d", run: () => "pong" });
    const toolkit = await createToolkit({ builtins: false, extraTools: [ping] });
    const result = await createClient({ languageModel: provider.chatModel("stub-model") }).run("ping", {
      toolkit,
    });
    expect(result.status).toBe("done");
    expect(result.text).toBe("model saw pong");
  });
});
