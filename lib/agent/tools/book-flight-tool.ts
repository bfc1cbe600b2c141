import { defineTool, pending, type Tool } from "toolnexus";
import { z } from "zod";
import type { ApprovalProfile } from "@/lib/agent/policy/approval-profile";
import { type Clock, expiresIn, HOUR_MS, stableReference, systemClock } from "./tool-clock";

export const BOOK_FLIGHT_INPUT_TTL_MS = HOUR_MS;

const AIRPORT_PATTERN = "^[A-Z]{3}$";
const FIELDS = ["from", "to", "date", "passengers", "email"] as const;

/** The form the traveller fills in; formats and patterns make the browser and server checks real. */
export const FLIGHT_DETAILS_SCHEMA = {
  type: "object",
  properties: {
    from: { type: "string", title: "From (airport code)", pattern: AIRPORT_PATTERN },
    to: { type: "string", title: "To (airport code)", pattern: AIRPORT_PATTERN },
    date: { type: "string", title: "Departure date", format: "date" },
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
    passengers: z.number().int().min(1).max(9),
    email: z.email(),
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

function formWithDefaults(known: Partial<FlightDetails>) {
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

      const parsed = detailsSchema.safeParse({ ...known, ...(ctx.answer.data ?? {}) });
      if (!parsed.success)
        throw new Error(`The flight details are not valid: ${z.prettifyError(parsed.error)}`);
      const details = parsed.data;
      const today = clock().toISOString().slice(0, 10);
      if (details.date < today) throw new Error(`The departure date ${details.date} is in the past.`);

      const ref = stableReference("TNX", ctx.idempotencyKey, options.userId, JSON.stringify(details));
      const people = details.passengers === 1 ? "1 passenger" : `${details.passengers} passengers`;
      return `Booked ${details.from} → ${details.to} on ${details.date} for ${people}; booking reference ${ref}, e-ticket to ${details.email}.`;
    },
  });
}
