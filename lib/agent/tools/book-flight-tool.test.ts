import Ajv from "ajv";
import addFormats from "ajv-formats";
import { pendingOf } from "toolnexus";
import { describe, expect, it } from "vitest";
import { createBookFlightTool } from "./book-flight-tool";

const now = new Date("2030-03-10T09:00:00.000Z");
const tool = createBookFlightTool({ clock: () => now, userId: "u1" });

// As the server compiles answer schemas (lib/engine/validate-answer.ts): `x-` keywords are the
// form's, and not strict mode's business.
function compile(schema: unknown) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema as object);
}

describe("book_flight tool", () => {
  it("asks for every missing field with a one-hour form, pre-filling what it knows", async () => {
    const request = pendingOf(await tool.execute({ from: "ber", date: "2030-04-01" }));
    expect(request).toMatchObject({
      kind: "input",
      prompt: "To book the flight I need: to, passengers, email.",
      expiresAt: "2030-03-10T10:00:00.000Z",
      data: { values: { from: "BER", date: "2030-04-01" } },
    });
    const schema = request?.data?.schema as { properties: Record<string, { default?: unknown }> };
    expect(schema.properties.from?.default).toBe("BER");
    expect(schema.properties.to?.default).toBeUndefined();
  });

  it("drops invalid values from the model instead of trusting them", async () => {
    const request = pendingOf(await tool.execute({ from: "Berlin", to: "LIS", passengers: 42 }));
    expect(request?.prompt).toBe("To book the flight I need: from, date, passengers, email.");
  });

  it("offers a form schema whose formats and patterns really validate", async () => {
    const request = pendingOf(await tool.execute({}));
    const validate = compile(request?.data?.schema);
    const good = { from: "BER", to: "LIS", date: "2030-04-01", passengers: 2, email: "a@example.com" };
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, from: "Berlin" })).toBe(false);
    expect(validate({ ...good, date: "01/04/2030" })).toBe(false);
    expect(validate({ ...good, email: "not-an-email" })).toBe(false);
    expect(validate({ ...good, passengers: 0 })).toBe(false);
    expect(validate({ from: "BER" })).toBe(false);
  });

  it("books with the form values merged over the model's arguments on the retry", async () => {
    const answer = {
      id: "r",
      ok: true,
      data: { to: "LIS", date: "2030-04-01", passengers: 2, email: "alice@example.com" },
    };
    const result = await tool.execute({ from: "BER" }, { answer, idempotencyKey: "run:call" });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(
      /^Booked BER → LIS on 2030-04-01 for 2 passengers; booking reference TNX-[0-9A-F]{8}, e-ticket to alice@example\.com\.$/,
    );
  });

  it("declares a date from today on and shows the codes' form by example", async () => {
    const schema = pendingOf(await tool.execute({}))?.data?.schema as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.date).toMatchObject({ format: "date", "x-minDate": "today" });
    expect(schema.properties.to).toMatchObject({ pattern: "^[A-Z]{3}$", examples: ["JFK"] });
  });

  it("asks again, saying why and filled in with what was sent, when it refuses a past date", async () => {
    const base = { from: "BER", to: "LIS", passengers: 1, email: "a@example.com" };
    const past = await tool.execute(
      {},
      { answer: { id: "r1", ok: true, data: { ...base, date: "2030-03-09" } }, idempotencyKey: "run:call" },
    );
    const again = pendingOf(past);
    expect(again).toMatchObject({
      kind: "input",
      prompt:
        "The flight could not be booked: the departure date 2030-03-09 is in the past; choose 2030-03-10 or later. Please correct the details.",
      expiresAt: "2030-03-10T10:00:00.000Z",
      data: { values: { ...base, date: "2030-03-09" } },
    });
    // The same call goes on: the loop parks the new question on the slot the answer filled.
    expect(past.metadata?.continues).toBe("r1");
    expect(again?.id).not.toBe("r1");
    const schema = again?.data?.schema as { properties: Record<string, { default?: unknown }> };
    expect(schema.properties.email?.default).toBe("a@example.com");
    expect(schema.properties.date?.default).toBe("2030-03-09");
  });

  it("asks again when the airports are the same, and books once the answer is right", async () => {
    const base = { from: "BER", to: "LIS", passengers: 1, email: "a@example.com", date: "2030-04-01" };
    const same = await tool.execute({}, { answer: { id: "r1", ok: true, data: { ...base, to: "BER" } } });
    expect(pendingOf(same)?.prompt).toBe(
      "The flight could not be booked: from and to must differ. Please correct the details.",
    );
    const booked = await tool.execute(
      {},
      { answer: { id: "r2", ok: true, data: base }, idempotencyKey: "k" },
    );
    expect(pendingOf(booked)).toBeUndefined();
    expect(booked.output).toMatch(/^Booked BER → LIS on 2030-04-01/);
  });
});
