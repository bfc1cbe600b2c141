import { describe, expect, it } from "vitest";
import { thrownCode } from "../../testing/thrown-code";
import { createHttpDriver, type WireStyle } from "./http-driver";

describe("createHttpDriver configuration", () => {
  const base = { baseUrl: "http://127.0.0.1:9/v1", style: "openai" as const, model: "m", apiKey: "k" };
  it("refuses each call without an API key, given or in the environment", async () => {
    const saved = { ...process.env };
    for (const name of ["OPENROUTER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"])
      delete process.env[name];
    try {
      for (const apiKey of [undefined, "  "]) {
        const driver = createHttpDriver({ ...base, apiKey });
        expect(await thrownCode(() => driver.generate({ model: "m", messages: [], tools: [] }))).toBe(
          "config:missing_api_key",
        );
      }
    } finally {
      process.env = saved;
    }
  });

  it("takes the key from the environment when none is given", async () => {
    const seen: string[] = [];
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      seen.push(
        new Headers(init?.headers).get("x-api-key") ?? new Headers(init?.headers).get("authorization") ?? "",
      );
      return new Response(JSON.stringify({ content: [{ type: "text", text: "ok" }], usage: {} }), {
        status: 200,
      });
    };
    const saved = { ...process.env };
    process.env.OPENROUTER_API_KEY = "";
    process.env.ANTHROPIC_API_KEY = "from-env";
    process.env.OPENAI_API_KEY = "not-this-one";
    try {
      const driver = createHttpDriver({
        ...base,
        style: "anthropic",
        apiKey: undefined,
        fetch: fetch as typeof globalThis.fetch,
      });
      await driver.generate({ model: "m", messages: [{ role: "user", content: "hi" }], tools: [] });
      expect(seen).toEqual(["from-env"]);
    } finally {
      process.env = saved;
    }
  });

  it("refuses an unknown wire style", async () => {
    expect(await thrownCode(() => createHttpDriver({ ...base, style: "gemini" as WireStyle }))).toBe(
      "config:unknown_style",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, style: "toString" as WireStyle }))).toBe(
      "config:unknown_style",
    );
  });

  it("refuses a bad baseUrl and bad numbers", async () => {
    expect(await thrownCode(() => createHttpDriver({ ...base, baseUrl: "not a url" }))).toBe(
      "config:invalid",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, baseUrl: "ftp://host/v1" }))).toBe(
      "config:invalid",
    );
    expect(await thrownCode(() => createHttpDriver({ ...base, retries: -1 }))).toBe("config:invalid");
    expect(await thrownCode(() => createHttpDriver({ ...base, timeoutMs: 0 }))).toBe("config:invalid");
    expect(await thrownCode(() => createHttpDriver(base))).toBe("no error");
  });

  it("uses an injected fetch instead of the global one", async () => {
    const seen: Array<{ url: string; body: unknown }> = [];
    const fetchStub: typeof fetch = async (url, init) => {
      seen.push({ url: String(url), body: JSON.parse(String(init?.body)) });
      const reply = { choices: [{ message: { role: "assistant", content: "from the stub" } }] };
      return new Response(JSON.stringify(reply), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    };
    const d = createHttpDriver({ ...base, baseUrl: "http://stub", fetch: fetchStub });
    const turn = await d.generate({ model: "m", messages: [{ role: "user", content: "hi" }], tools: [] });
    expect(turn).toEqual({
      text: "from the stub",
      toolCalls: [],
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(seen).toEqual([
      {
        url: "http://stub/chat/completions",
        body: { model: "m", messages: [{ role: "user", content: "hi" }] },
      },
    ]);
  });

  it("lets a caller's header replace the style's own, whatever its case", async () => {
    let sent: Headers | undefined;
    const fetchStub: typeof fetch = async (_url, init) => {
      sent = new Headers(init?.headers);
      return new Response(JSON.stringify({ choices: [{ message: { content: "ok" } }] }));
    };
    const d = createHttpDriver({
      ...base,
      fetch: fetchStub,
      headers: { Authorization: "Bearer gateway-token" },
    });
    await d.generate({ model: "m", messages: [], tools: [] });
    expect(sent?.get("authorization")).toBe("Bearer gateway-token");
  });
});
