import type { RJSFSchema } from "@rjsf/utils";
import { describe, expect, it } from "vitest";
import { localToday } from "./date-floor";
import { humanizeErrors } from "./human-errors";
import { SchemaValidator } from "./schema-validator";

// What a tool declares beyond plain JSON Schema limits (ADR 0083): the earliest date a field
// takes (`x-minDate`), and an example that shows what a pattern expects.

const today = "2030-03-10";
const ours = new SchemaValidator(() => today);

// Typed loosely: JSON Schema's types know no `x-` keywords.
const flight = {
  type: "object",
  properties: {
    to: { type: "string", title: "To (airport code)", pattern: "^[A-Z]{3}$", examples: ["JFK"] },
    date: { type: "string", title: "Departure date", format: "date", "x-minDate": "today" },
    back: { type: "string", title: "Return date", format: "date", "x-minDate": "2030-06-01" },
    legs: {
      type: "array",
      items: { $ref: "#/definitions/leg" },
    },
  },
  definitions: {
    leg: { type: "object", properties: { on: { type: "string", format: "date", "x-minDate": "today" } } },
  },
} as RJSFSchema;

function messages(data: unknown) {
  const { errors, errorSchema } = ours.validateFormData(data, flight, undefined, humanizeErrors);
  return { list: errors.map((error) => `${error.property}: ${error.message}`), errorSchema };
}

describe("the form validator's date floor and pattern examples", () => {
  it("refuses a date before today, at its field, saying what it expects", () => {
    const { list, errorSchema } = messages({ date: "2030-03-09" });
    expect(list).toEqual([".date: Departure date must be today (2030-03-10) or later."]);
    expect(errorSchema).toEqual({
      date: { __errors: ["Departure date must be today (2030-03-10) or later."] },
    });
  });

  it("takes today and later days, and leaves a value that is no date to the format check", () => {
    expect(messages({ date: "2030-03-10", back: "2030-06-01" }).list).toEqual([]);
    expect(messages({ date: "2031-01-01" }).list).toEqual([]);
    expect(messages({ date: "10/03/2030" }).list).toEqual([".date: Departure date must be a date."]);
  });

  it("reads a fixed earliest date and dates inside arrays and references", () => {
    expect(messages({ back: "2030-05-31", legs: [{ on: "2030-03-11" }, { on: "2029-12-31" }] }).list).toEqual(
      [
        ".back: Return date must be 2030-06-01 or later.",
        ".legs.1.on: on must be today (2030-03-10) or later.",
      ],
    );
  });

  it("counts the floor in isValid, which RJSF uses to pick oneOf options", () => {
    expect(ours.isValid(flight, { date: "2030-03-09" }, flight)).toBe(false);
    expect(ours.isValid(flight, { date: "2030-03-10" }, flight)).toBe(true);
  });

  it("says what form a pattern expects by the schema's first example", () => {
    expect(messages({ to: "lisbon" }).list).toEqual([
      ".to: To (airport code) is not in the expected form: write it like JFK.",
    ]);
  });

  it("takes today as the person's calendar date, not UTC's", () => {
    expect(localToday(new Date(2030, 0, 5, 23, 30))).toBe("2030-01-05");
    expect(localToday(new Date(2030, 11, 31, 0, 5))).toBe("2030-12-31");
  });
});
