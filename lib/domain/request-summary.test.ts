import { describe, expect, it } from "vitest";
import { approvedArguments, closedSentence, fillSummary, summaryOf, summaryText } from "./request-summary";

describe("the one sentence of a request", () => {
  it("fills a tool's template with its arguments, values marked", () => {
    const parts = fillSummary("Deploy {service} {version} to {environment}", {
      service: "web",
      version: "v1.4",
      environment: "production",
    });
    expect(parts).toEqual([
      { text: "Deploy ", value: false },
      { text: "web", value: true },
      { text: " ", value: false },
      { text: "v1.4", value: true },
      { text: " to ", value: false },
      { text: "production", value: true },
    ]);
  });

  it("formats money and refuses a sentence with a hole in it", () => {
    expect(
      summaryText(fillSummary("Refund {amount:usd} for order {orderId}", { amount: 250, orderId: "4321" })!),
    ).toBe("Refund $250.00 for order 4321");
    expect(fillSummary("Refund {amount:usd} for order {orderId}", { amount: 250 })).toBeNull();
    expect(fillSummary("Deploy {service}", { service: { name: "web" } })).toBeNull();
  });

  it("falls back to the prompt without a template, or when the template cannot be filled", () => {
    const prompt = "Approve running Print with {}?";
    expect(summaryOf({ prompt }, {})).toEqual({
      parts: [{ text: prompt, value: false }],
      fromTemplate: false,
    });
    expect(summaryOf({ prompt, data: { summary: "Print {file}" } }, {}).fromTemplate).toBe(false);
    expect(
      summaryText(summaryOf({ prompt, data: { summary: "Print {file}" } }, { file: "a.txt" }).parts),
    ).toBe("Print a.txt");
  });

  it("reads the approved arguments of an edited approval, else the asked ones", () => {
    expect(approvedArguments({ arguments: { version: "v1.4.1" } }, { version: "v1.4" })).toEqual({
      version: "v1.4.1",
    });
    expect(approvedArguments({ note: "ok" }, { version: "v1.4" })).toEqual({ version: "v1.4" });
  });

  it("says what a closed request did with the approved arguments, and nothing it does not know", () => {
    const closed = (answer: { ok: boolean; data?: Record<string, unknown> }, schema = true) => ({
      status: "answered" as const,
      request: {
        id: "a",
        kind: "approval",
        prompt: "Approve deploying web v1.4 to production?",
        data: { summary: "Deploy {service} {version}", ...(schema ? { schema: {} } : {}) },
      },
      audience: "reviewers" as const,
      toolName: "deploy",
      args: { service: "web", version: "v1.4" },
      createdAt: "2026-12-07T00:00:00.000Z",
      answer: { ...answer, answeredAt: "2026-12-07T00:01:00.000Z" },
    });
    const text = (parts: ReturnType<typeof closedSentence>) => (parts ? summaryText(parts) : null);
    expect(
      text(closedSentence(closed({ ok: true, data: { arguments: { service: "web", version: "v1.4.1" } } }))),
    ).toBe("Deploy web v1.4.1");
    expect(text(closedSentence(closed({ ok: false, data: { reason: "no" } })))).toBe("Deploy web v1.4");
    // The chat is told only that an editable approval was approved: it does not guess the values.
    expect(closedSentence(closed({ ok: true }))).toBeNull();
    expect(text(closedSentence(closed({ ok: true }, false)))).toBe("Deploy web v1.4");
  });
});
