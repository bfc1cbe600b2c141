import { describe, expect, it } from "vitest";
import { parseDemoIntent } from "./demo-intent";

describe("parseDemoIntent", () => {
  it("reads a production deploy with the default service", () => {
    expect(parseDemoIntent("deploy v1.4 to production")).toEqual({
      kind: "deploy",
      args: { service: "web", version: "v1.4", environment: "production" },
    });
  });

  it("reads a named service and a staging deploy, accepting short environment names", () => {
    expect(parseDemoIntent("Please deploy API 2.0.1 to stage")).toEqual({
      kind: "deploy",
      args: { service: "api", version: "2.0.1", environment: "staging" },
    });
    expect(parseDemoIntent("deploy checkout v3 on prod")).toMatchObject({
      args: { service: "checkout", environment: "production" },
    });
  });

  it("reads a refund with amount, optional dollar sign and reason", () => {
    expect(parseDemoIntent("refund order 1234 for $250")).toEqual({
      kind: "refund",
      args: { orderId: "1234", amount: 250 },
    });
    expect(parseDemoIntent("Refund #A-77 for 19.99 because it arrived broken")).toEqual({
      kind: "refund",
      args: { orderId: "A-77", amount: 19.99, reason: "it arrived broken" },
    });
  });

  it("reads whatever flight details are given and leaves the rest out", () => {
    expect(parseDemoIntent("book a flight")).toEqual({ kind: "book_flight", args: {} });
    expect(parseDemoIntent("Book a flight from BER to LIS on 2030-05-01 for 2 passengers")).toEqual({
      kind: "book_flight",
      args: { from: "BER", to: "LIS", date: "2030-05-01", passengers: 2 },
    });
    expect(parseDemoIntent("book me a flight to the coast from Berlin")).toEqual({
      kind: "book_flight",
      args: {},
    });
  });

  it("turns 'ask me …' into a question, with a default pair of questions", () => {
    expect(parseDemoIntent("ask me about my favourite colour")).toEqual({
      kind: "question",
      args: { questions: [{ question: "My favourite colour?" }] },
    });
    const fallback = parseDemoIntent("ask me a question");
    expect(fallback.kind).toBe("question");
    if (fallback.kind !== "question") throw new Error("unreachable");
    expect(fallback.args.questions[0]?.options).toEqual(["staging", "production"]);
    expect(fallback.args.questions).toHaveLength(2);
  });

  it("recognises the balance request and falls back to help", () => {
    expect(parseDemoIntent("what's my balance?")).toEqual({ kind: "balance" });
    expect(parseDemoIntent("help")).toEqual({ kind: "help" });
    expect(parseDemoIntent("tell me a joke")).toEqual({ kind: "help" });
  });

  it("reads a command in backticks as a call of the bash built-in", () => {
    expect(parseDemoIntent("run `ls -la` in the shell")).toEqual({
      kind: "call",
      tool: "bash",
      args: { command: "ls -la" },
      preface: "Running `ls -la` in the shell.",
    });
    expect(parseDemoIntent("Please run `date`.")).toMatchObject({ tool: "bash", args: { command: "date" } });
    expect(parseDemoIntent("run `` in the shell")).toEqual({ kind: "help" });
    // A tool by name is still the MCP call it was.
    expect(parseDemoIntent("run tickets_list_tickets")).toMatchObject({ tool: "tickets_list_tickets" });
  });
});
