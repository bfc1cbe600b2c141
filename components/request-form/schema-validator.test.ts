import type { RJSFSchema, UiSchema } from "@rjsf/utils";
import ajvValidator from "@rjsf/validator-ajv8";
import { describe, expect, it } from "vitest";
import { humanizeErrors } from "./human-errors";
import { SchemaValidator } from "./schema-validator";

// The forms' validator interprets schemas instead of compiling them (no 'unsafe-eval' in the
// page's policy). People must see the same sentences as with RJSF's Ajv validator, field by
// field, so the two are run side by side on the same schemas and values.

const flight: RJSFSchema = {
  type: "object",
  properties: {
    from: { type: "string", title: "From (airport code)", pattern: "^[A-Z]{3}$" },
    to: { type: "string", title: "To (airport code)", pattern: "^[A-Z]{3}$" },
    date: { type: "string", title: "Departure date", format: "date" },
    passengers: { type: "integer", title: "Passengers", minimum: 1, maximum: 9 },
    email: { type: "string", title: "Email for the e-ticket", format: "email" },
  },
  required: ["from", "to", "date", "passengers", "email"],
};

const elicitation: RJSFSchema = {
  type: "object",
  properties: {
    title: { type: "string", title: "Title", minLength: 3, maxLength: 20 },
    nights: { type: "number", minimum: 2, exclusiveMaximum: 30 },
    colour: { type: "string", enum: ["red", "green"] },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, uniqueItems: true },
    "first-name": { type: "string" },
  },
  required: ["title", "first-name"],
};

const nested: RJSFSchema = {
  type: "object",
  properties: {
    traveller: {
      type: "object",
      title: "Traveller",
      properties: { name: { type: "string", title: "Full name", minLength: 2 }, age: { type: "integer" } },
      required: ["name"],
    },
  },
};

const ours = new SchemaValidator();

/** What a person reads, field by field: the error schema's sentences, from one validator. */
function sentences(
  validator: Pick<SchemaValidator, "validateFormData">,
  schema: RJSFSchema,
  data: unknown,
  uiSchema?: UiSchema,
) {
  const { errors, errorSchema } = validator.validateFormData(
    data,
    schema,
    undefined,
    humanizeErrors,
    uiSchema,
  );
  return {
    list: errors.map((error) => `${error.property}: ${error.stack}`).sort(),
    errorSchema,
  };
}

describe("the forms' schema validator", () => {
  const cases: Array<[string, RJSFSchema, unknown, UiSchema?]> = [
    ["nothing filled in", flight, {}],
    [
      "a bad pattern, a number over its maximum, a bad email and a bad date",
      flight,
      { from: "BER", to: "lisbon", date: "1 May", passengers: 12, email: "not-an-email" },
    ],
    ["a number under its minimum and a string where a number goes", flight, { passengers: 0, from: 7 }],
    ["a nested object's own required field and length", nested, { traveller: { age: 3 } }],
    ["a nested field too short", nested, { traveller: { name: "A" } }],
    ["a title from the ui schema", flight, { from: "BER" }, { to: { "ui:title": "Destination" } }],
    [
      "valid values",
      flight,
      { from: "BER", to: "LIS", date: "2031-05-01", passengers: 2, email: "a@example.com" },
    ],
  ];

  it.each(cases)("words %s as RJSF's Ajv validator does", (_, schema, data, uiSchema) => {
    const expected = sentences(ajvValidator, schema, data, uiSchema);
    const actual = sentences(ours, schema, data, uiSchema);
    expect(actual.list).toEqual(expected.list);
    expect(actual.errorSchema).toEqual(expected.errorSchema);
  });

  it("says the flight form's mistakes in the words the journeys read", () => {
    const { list } = sentences(ours, flight, { from: "BER", to: "lisbon", passengers: 12, email: "x" });
    expect(list).toEqual([
      ".email: Email for the e-ticket must be an email address.",
      ".passengers: Passengers must be 9 or less.",
      ".to: To (airport code) is not in the expected form.",
      "date: Departure date is required.",
    ]);
  });

  // Ajv's errors give a field without a title an empty one, so its sentences lost the field's
  // name (" is required."); these name the field by its key, as the wording intends.
  it("names a field without a title by its key", () => {
    const keyed = sentences(ours, elicitation, { title: "ab", nights: 30, colour: "blue", tags: ["a", "a"] });
    expect(keyed.list).toEqual([
      ".colour: colour must be one of the choices.",
      ".nights: nights must be less than 30.",
      ".tags: tags lists the same choice twice.",
      ".title: Title must be at least 3 characters.",
      "first-name: first-name is required.",
    ]);
    expect(Object.keys(keyed.errorSchema).sort()).toEqual([
      "colour",
      "first-name",
      "nights",
      "tags",
      "title",
    ]);
    const more = sentences(ours, elicitation, { title: "x".repeat(21), tags: [], "first-name": "Al" });
    expect(more.list).toEqual([
      ".tags: Choose at least 1 for tags.",
      ".title: Title must be at most 20 characters.",
    ]);
  });

  it("checks a sub-schema against the form's root definitions, as RJSF asks for oneOf options", () => {
    const root: RJSFSchema = {
      definitions: { code: { type: "string", pattern: "^[A-Z]{3}$" } },
      oneOf: [
        { type: "object", properties: { airport: { $ref: "#/definitions/code" } }, required: ["airport"] },
        { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      ],
    };
    const [byAirport, byCity] = root.oneOf as RJSFSchema[];
    expect(ours.isValid(byAirport!, { airport: "LIS" }, root)).toBe(true);
    expect(ours.isValid(byAirport!, { airport: "Lisbon" }, root)).toBe(false);
    expect(ours.isValid(byCity!, { airport: "LIS" }, root)).toBe(false);
    expect(ours.isValid(byCity!, { city: "Lisbon" }, root)).toBe(true);
  });

  it("leaves the schema it is given as it was", () => {
    const schema = structuredClone(flight);
    ours.validateFormData({ passengers: 20 }, schema, undefined, humanizeErrors);
    ours.isValid(schema, {}, schema);
    expect(schema).toEqual(flight);
  });

  it("reports a schema it cannot use instead of throwing", () => {
    const broken = { type: "object", properties: { a: { $ref: "#/definitions/missing" } } } as RJSFSchema;
    const { errors } = ours.validateFormData({ a: 1 }, broken);
    expect(errors.at(-1)?.stack).toMatch(/^The form's schema cannot be used: /);
    expect(ours.isValid(broken, { a: 1 }, broken)).toBe(false);
  });
});
