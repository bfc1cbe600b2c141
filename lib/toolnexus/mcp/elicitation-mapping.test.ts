import { describe, expect, it } from "vitest";
import { answerToElicitResult, elicitationToRequest } from "./elicitation";

describe("elicitation ⇄ request mapping", () => {
  it("makes a form an input request with its schema, a URL an authorization request", () => {
    const requestedSchema = { type: "object" as const, properties: { name: { type: "string" as const } } };
    const form = elicitationToRequest({ message: "Your name?", requestedSchema });
    expect(form).toEqual({
      id: expect.stringMatching(/^pnd-/),
      kind: "input",
      prompt: "Your name?",
      data: { schema: requestedSchema },
    });
    const url = elicitationToRequest({
      mode: "url",
      message: "Sign in",
      url: "https://idp.test/a",
      elicitationId: "e1",
    });
    expect(url).toEqual({
      id: expect.any(String),
      kind: "authorization",
      prompt: "Sign in",
      url: "https://idp.test/a",
    });
    expect(url.id).not.toBe(form.id);
  });

  it("turns answers into accept, decline or cancel", () => {
    expect(answerToElicitResult({ id: "1", ok: true, data: { name: "Ada" } })).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    expect(answerToElicitResult({ id: "1", ok: true })).toEqual({ action: "accept", content: {} });
    expect(answerToElicitResult({ id: "1", ok: false, reason: "declined" })).toEqual({ action: "decline" });
    expect(answerToElicitResult({ id: "1", ok: false, reason: "cancelled" })).toEqual({ action: "cancel" });
    expect(answerToElicitResult({ id: "1", ok: false, reason: "expired" })).toEqual({ action: "cancel" });
    expect(answerToElicitResult({ id: "1", ok: false })).toEqual({ action: "cancel" });
  });
});
