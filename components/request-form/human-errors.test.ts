import { describe, expect, it } from "vitest";
import { humanizeErrors, humanMessage } from "./human-errors";

describe("humanMessage", () => {
  it("says which field is required, by its title", () => {
    expect(
      humanMessage({
        name: "required",
        property: ".date",
        params: { missingProperty: "date" },
        title: "Departure date",
        message: "must have required property 'Departure date'",
        stack: "must have required property 'Departure date'",
      }),
    ).toBe("Departure date is required.");
  });

  it("words limits, formats, patterns and types for people", () => {
    const field = { property: ".x", title: "Passengers", stack: "" };
    expect(humanMessage({ ...field, name: "maximum", params: { limit: 9 } })).toBe(
      "Passengers must be 9 or less.",
    );
    expect(humanMessage({ ...field, name: "minimum", params: { limit: 1 } })).toBe(
      "Passengers must be 1 or more.",
    );
    expect(humanMessage({ ...field, name: "type", params: { type: "integer" } })).toBe(
      "Passengers must be a whole number.",
    );
    expect(humanMessage({ ...field, title: "Email", name: "format", params: { format: "email" } })).toBe(
      "Email must be an email address.",
    );
    expect(humanMessage({ ...field, title: "To", name: "pattern", params: { pattern: "^[A-Z]{3}$" } })).toBe(
      "To is not in the expected form.",
    );
    expect(humanMessage({ ...field, title: "Name", name: "maxLength", params: { limit: 1 } })).toBe(
      "Name must be at most 1 character.",
    );
  });

  it("falls back to the field's name, and to the validator's words only for what it does not know", () => {
    expect(
      humanMessage({ name: "required", property: ".city", params: { missingProperty: "city" }, stack: "" }),
    ).toBe("city is required.");
    expect(
      humanMessage({
        name: "dependentRequired",
        property: ".a",
        message: "must have property b",
        stack: "raw",
      }),
    ).toBe("a: must have property b");
  });
});

describe("humanizeErrors", () => {
  it("rewrites message and stack and keeps the rest", () => {
    const [error] = humanizeErrors([
      {
        name: "minimum",
        property: ".n",
        params: { limit: 2 },
        title: "Nights",
        message: "must be >= 2",
        stack: "x",
      },
    ]);
    expect(error).toEqual({
      name: "minimum",
      property: ".n",
      params: { limit: 2 },
      title: "Nights",
      message: "Nights must be 2 or more.",
      stack: "Nights must be 2 or more.",
    });
  });
});
