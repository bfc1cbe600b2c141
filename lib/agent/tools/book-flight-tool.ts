import { defineTool, pending, type Tool } from "toolnexus";
import { z } from "zod";
import type { ApprovalProfile } from "@/lib/agent/policy/approval-profile";
import { type Clock, expiresIn, HOUR_MS, stableReference, systemClock } from "./tool-clock";

export const BOOK_FLIGHT_INPUT_TTL_MS = HOUR_MS;

const AIRPORT_PATTERN = "^[A-Z]{3}$";
const FIELDS = ["from", "to", "date", "passengers", "email"] as const;
const PASSENGERS = "passengers must be a whole number from 1 to 9";

/**
 * The form the traveller fills in; formats and patterns make the browser and server checks real.
 * `examples` shows the expected form of a code ("like LHR"); `x-minDate: "today"` lets the form
 * refuse a past date before it is sent (ADR 0083). The tool still checks the date itself.
 */
export const FLIGHT_DETAILS_SCHEMA = {
  type: "object",
  properties: {
    from: { type: "string", title: "From (airport code)", pattern: AIRPORT_PATTERN, examples: ["LHR"] },
    to: { type: "string", title: "To (airport code)", pattern: AIRPORT_PATTERN, examples: ["JFK"] },
    date: { type: "string", title: "Departure date", format: "date", "x-minDate": "today" },
    passengers: { type: "integer", title: "Passengers", minimum: 1, maximum: 9 },
    email: { type: "string", title: "Email for the e-ticket", format: "email" },
  },
  required: [...FIELDS],
  additionalProperties: false,
} as const;

const detailsSchema = z
  .object({
    from: z.string().regex(new RegExp(AIRPORT_PATTERN), "from must be a three-letter airport code"),
    to: z.string().regex(new RegExp(AIRPORT_PATTERN), "to must be a three-letter airport code"),
    date: z.iso.date("date must be YYYY-MM-DD"),
    passengers: z.number(PASSENGERS).int(PASSENGERS).min(1, PASSENGERS).max(9, PASSENGERS),
    email: z.email("email must be an email address"),
  })
  .refine((d) => d.from !== d.to, { message: "from and to must differ", path: ["to"] });

type FlightDetails = z.infer<typeof detailsSchema>;

/** Keeps what the model already knew and is valid; everything else is asked for. */
function knownValues(args: Record<string, unknown>): Partial<FlightDetails> {
  const known: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const raw = args[field];
    const value =
      (field === "from" || field === "to") && typeof raw === "string" ? raw.trim().toUpperCase() : raw;
    if (value !== undefined && detailsSchema.shape[field].safeParse(value).success) known[field] = value;
  }
  return known as Partial<FlightDetails>;
}

function dateReasons(date: string, today: string): string[] {
  return date < today ? [`the departure date ${date} is in the past; choose ${today} or later`] : [];
}

function issueMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => issue.message);
}

/** What the person sent, for the form that asks again: the fields of the form, nothing else. */
function sentValues(answered: Record<string, unknown>): Partial<Record<keyof FlightDetails, unknown>> {
  const sent: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = answered[field];
    if (typeof value === "string" || typeof value === "number") sent[field] = value;
  }
  return sent;
}

function formWithDefaults(known: Partial<Record<keyof FlightDetails, unknown>>) {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, spec] of Object.entries(FLIGHT_DETAILS_SCHEMA.properties)) {
    const value = known[name as keyof FlightDetails];
    properties[name] = value === undefined ? { ...spec } : { ...spec, default: value };
  }
  return { ...FLIGHT_DETAILS_SCHEMA, required: [...FIELDS], properties };
}

/**
 * The traveller confirms a booking by filling in and sending its form, so asking them first
 * whether the tool may run would only ask the same person twice.
 */
export const BOOK_FLIGHT_APPROVAL: ApprovalProfile = { defaultPolicy: "free" };

export function createBookFlightTool(options: { clock?: Clock; userId?: string } = {}): Tool {
  const clock = options.clock ?? systemClock;
  return defineTool({
    name: "book_flight",
    description:
      "Book a flight. Pass whatever the user said (airport codes, date, passengers); missing details are asked for with a form.",
    annotations: { title: "Book a flight", readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    inputSchema: {
      type: "object",
      properties: {
        from: { type: "string", description: "Departure airport (IATA code)" },
        to: { type: "string", description: "Arrival airport (IATA code)" },
        date: { type: "string", description: "YYYY-MM-DD" },
        passengers: { type: "integer", minimum: 1, maximum: 9 },
      },
      additionalProperties: false,
    },
    run: (args, ctx) => {
      const known = knownValues(args);

      if (!ctx?.answer?.ok) {
        const missing = FIELDS.filter((field) => known[field] === undefined);
        return pending({
          kind: "input",
          prompt: `To book the flight I need: ${missing.join(", ")}.`,
          data: { schema: formWithDefaults(known), values: known },
          expiresAt: expiresIn(clock, BOOK_FLIGHT_INPUT_TTL_MS),
        });
      }

      const answered: Record<string, unknown> = { ...known, ...(ctx.answer.data ?? {}) };
      const parsed = detailsSchema.safeParse(answered);
      const today = clock().toISOString().slice(0, 10);
      const reasons = parsed.success ? dateReasons(parsed.data.date, today) : issueMessages(parsed.error);
      // A refused answer is asked for again, saying why, with what was sent filled in: the same
      // call goes on (`continues`), so the run does not end on a detail the person can fix.
      if (!parsed.success || reasons.length > 0) {
        const again = pending({
          kind: "input",
          prompt: `The flight could not be booked: ${reasons.join("; ")}. Please correct the details.`,
          data: { schema: formWithDefaults(sentValues(answered)), values: sentValues(answered) },
          expiresAt: expiresIn(clock, BOOK_FLIGHT_INPUT_TTL_MS),
        });
        return { ...again, metadata: { ...again.metadata, continues: ctx.answer.id } };
      }
      const details = parsed.data;

      const ref = stableReference("TNX", ctx.idempotencyKey, options.userId, JSON.stringify(details));
      const people = details.passengers === 1 ? "1 passenger" : `${details.passengers} passengers`;
      return `Booked ${details.from} → ${details.to} on ${details.date} for ${people}; booking reference ${ref}, e-ticket to ${details.email}.`;
    },
  });
}
