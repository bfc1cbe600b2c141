import { describe, expect, it } from "vitest";
import { approvedArguments, fillSummary, summaryOf, summaryText } from "./request-summary";

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
});
