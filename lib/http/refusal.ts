import { BODY_TOO_LARGE } from "./body-limit.mjs";

// What the app answers a request it refuses before any route's own code runs, in the shape of
// the app's errors: `{ code, status, message, issues }` as JSON with the status. The codes
// follow the app's error codes (lib/errors.ts).
const REFUSALS = {
  "forbidden:origin": { status: 403, message: "This action was sent from another site and was refused." },
  "bad_request:input": { status: 400, message: "The request body is not valid JSON." },
  [BODY_TOO_LARGE.code]: { status: BODY_TOO_LARGE.status, message: BODY_TOO_LARGE.message },
} as const;

export type RefusalCode = keyof typeof REFUSALS;

export interface HttpRefusal {
  code: RefusalCode;
  status: number;
  message: string;
  /** Per field, as JSON pointers; empty when the refusal is about the request as a whole. */
  issues: { path: string; message: string }[];
}

export function refusal(
  code: RefusalCode,
  message?: string,
  issues: HttpRefusal["issues"] = [],
): HttpRefusal {
  return { code, status: REFUSALS[code].status, message: message ?? REFUSALS[code].message, issues };
}
