import { describe, expect, it } from "vitest";
import { answerLines, fieldLabel, wordsOfValue } from "./answer-words";

describe("an answer in words", () => {
  it("opens an approval's arguments and labels each value by its field's title", () => {
    const schema = {
      properties: {
        arguments: {
          properties: { service: { title: "Service" }, version: { title: "Version" } },
        },
        note: { title: "Note (optional)" },
        allowInThread: { title: "Always allow deploy in this chat" },
      },
    };
    expect(
      answerLines(
        { arguments: { service: "web", version: "v1.4.1" }, note: "Ship it", allowInThread: false },
        schema,
      ),
    ).toEqual([
      { label: "Service", text: "web" },
      { label: "Version", text: "v1.4.1" },
      { label: "Note", text: "Ship it" },
    ]);
  });

  it("reads keys without a schema as words, and values as words", () => {
    expect(answerLines({ orderId: "4321", seats: 2, window: true, meals: ["veg", "kosher"] })).toEqual([
      { label: "Order id", text: "4321" },
      { label: "Seats", text: "2" },
      { label: "Window", text: "Yes" },
      { label: "Meals", text: "veg, kosher" },
    ]);
  });

  it("labels a changed field by its form's title or its key in words, never by its path", () => {
    const schema = {
      type: "object",
      properties: {
        arguments: { type: "object", properties: { version: { title: "Version" }, dryRun: {} } },
        note: { title: "Note (optional)" },
      },
    };
    expect(fieldLabel("arguments.version", schema)).toBe("Version");
    expect(fieldLabel("arguments.dryRun", schema)).toBe("Dry run");
    expect(fieldLabel("note", schema)).toBe("Note");
    expect(fieldLabel("arguments.orderId")).toBe("Order id");
    expect([wordsOfValue("v1.4"), wordsOfValue(true), wordsOfValue(2500)]).toEqual(["v1.4", "Yes", "2,500"]);
  });
});
